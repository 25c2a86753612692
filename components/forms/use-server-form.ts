import { type BaseSyntheticEvent, useState } from "react";
import { type FieldErrors, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import { lazyZodResolver } from "@/components/forms/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/forms/sentence-resolver";
import type { FormRefusal } from "@/lib/validations/field-errors";

/** A form's checks: its schema's resolver, and what the form's sentences call each field. */
export type FormChecks<Values extends FieldValues, Output> = { resolver: Resolver<Values, unknown, Output>; labels: FieldLabels<Values> };

/**
 * The checks of a form whose schema is the one the server parses with:
 * `loadSchema` is a dynamic import() of its module (components/forms/lazy-zod-resolver.ts),
 * and every message becomes a sentence naming its field as `labels` say.
 * Without labels the schema's messages show as written (they are already
 * sentences for a person). Made once, beside the form, so the schema loads once.
 */
export function formChecks<Values extends FieldValues, Output>(loadSchema: () => Promise<z.ZodType<Output, Values>>, labels?: FieldLabels<Values>): FormChecks<Values, Output> {
  const resolver = lazyZodResolver(loadSchema);
  return labels ? { resolver: withSentences(resolver, labels), labels } : { resolver, labels: {} };
}

/** A server action's refusal: each message on the field it names, or on the form (null). */
type Refusal = FormRefusal<string>;

/**
 * What a submission answers: nothing, when it has shown what it had to
 * itself; a message for the form as a whole, shown as written; a Refusal,
 * each message under its field as a sentence, the first field refused taking
 * focus; or any other object, what was done (the form's `done`).
 */
export type SubmitAnswer = string | Refusal | object | undefined | void;

/** What a form's `onSubmit` answers when something was done. */
type Done<Answer> = Exclude<Answer, string | Refusal | undefined | void>;

export type ServerFormOptions<Values extends FieldValues, Output, Answer extends SubmitAnswer> = Omit<UseFormProps<Values, unknown, Output>, "resolver"> & {
  /**
   * Sends the checked values (to a server action, the API); runs only when the form's own checks pass.
   * A server action goes in an arrow, `(values) => action(values)`: given as it is, it would be sent the form too.
   */
  onSubmit(values: Output, form: UseFormReturn<Values, unknown, Output>): Promise<Answer>;
  /** Once something is done, the fields start again from their default values (for the next token, invitation, password). */
  resetWhenDone?: boolean;
};

export type ServerForm<Values extends FieldValues, Output, Done> = UseFormReturn<Values, unknown, Output> & {
  /** The form element's onSubmit: checks, then calls `onSubmit` and shows what it answered. */
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
  errors: FieldErrors<Values>;
  /** The message for the form as a whole (errors.root.server), for FormError. */
  formError: string | undefined;
  /** True while a submission is under way, for SubmitButton. */
  pending: boolean;
  /** What the last submission did, until the next one starts: the form shows it (a status, a secret shown once). */
  done: Done | undefined;
};

/**
 * react-hook-form set up as every form here is: checked by `checks` (the
 * server's schema, in sentences), submitted through `onSubmit`, whose answer
 * shows on the fields, on the form, or as what was done. The other options
 * are useForm's (defaultValues, mode, errors), and so is the rest of what it
 * returns.
 */
export function useServerForm<Values extends FieldValues, Output, Answer extends SubmitAnswer>(
  checks: FormChecks<Values, Output>,
  { onSubmit, resetWhenDone = false, ...options }: ServerFormOptions<Values, Output, Answer>,
): ServerForm<Values, Output, Done<Answer>> {
  // Only the options given: an undefined one (mode) would override useForm's default.
  const form = useForm<Values, unknown, Output>({ ...options, resolver: checks.resolver });
  const [done, setDone] = useState<Done<Answer>>();
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setDone(undefined);
    const answer = await onSubmit(values, form);
    if (!answer) return;
    if (typeof answer === "string") form.setError("root.server", { type: "server", message: answer });
    else if (isRefusal(answer)) showServerErrors(form.setError, answer.errors, checks.labels);
    else {
      setDone(answer as Done<Answer>);
      if (resetWhenDone) form.reset();
    }
  });
  return { ...form, submit, errors, formError: errors.root?.server?.message, pending: isSubmitting, done };
}

function isRefusal(answer: object): answer is Refusal {
  return "errors" in answer && Array.isArray(answer.errors);
}

import type { BaseSyntheticEvent } from "react";
import { type FieldErrors, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import type { FieldError } from "@/lib/validations/field-errors";

/** A form's checks: its schema's resolver, and what the form's sentences call each field. */
export type FormChecks<Values extends FieldValues, Output> = { resolver: Resolver<Values, unknown, Output>; labels: FieldLabels<Values> };

/**
 * The checks of a form whose schema is the one the server parses with:
 * `loadSchema` is a dynamic import() of its module (components/lazy-zod-resolver.ts),
 * and every message becomes a sentence naming its field as `labels` say.
 * Without labels the schema's messages show as written (they are already
 * sentences for a person). Made once, beside the form, so the schema loads once.
 */
export function formChecks<Values extends FieldValues, Output>(loadSchema: () => Promise<z.ZodType<Output, Values>>, labels?: FieldLabels<Values>): FormChecks<Values, Output> {
  const resolver = lazyZodResolver(loadSchema);
  return labels ? { resolver: withSentences(resolver, labels), labels } : { resolver, labels: {} };
}

/**
 * What a submission answers: nothing when it is done (or has shown what it
 * had to itself); a message for the form as a whole, shown as written; or a
 * server action's refusal (lib/validations/field-errors.ts), each message
 * under its field as a sentence, the first field refused taking focus.
 */
export type SubmitAnswer = string | { errors: FieldError<string>[] } | undefined | void;

export type ServerFormOptions<Values extends FieldValues, Output> = Omit<UseFormProps<Values, unknown, Output>, "resolver"> & {
  /** Sends the checked values (a server action, the API); runs only when the form's own checks pass. */
  onSubmit(values: Output, form: UseFormReturn<Values, unknown, Output>): Promise<SubmitAnswer>;
};

export type ServerForm<Values extends FieldValues, Output> = UseFormReturn<Values, unknown, Output> & {
  /** The form element's onSubmit: checks, then calls `onSubmit` and shows what it answered. */
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
  errors: FieldErrors<Values>;
  /** The message for the form as a whole (errors.root.server), for FormError. */
  formError: string | undefined;
  /** True while a submission is under way, for SubmitButton. */
  pending: boolean;
};

/**
 * react-hook-form set up as every form here is: checked by `checks` (the
 * server's schema, in sentences), submitted through `onSubmit`, whose answer
 * shows on the fields or on the form. The other options are useForm's
 * (defaultValues, mode, errors), and so is the rest of what it returns.
 */
export function useServerForm<Values extends FieldValues, Output>(checks: FormChecks<Values, Output>, { onSubmit, ...options }: ServerFormOptions<Values, Output>): ServerForm<Values, Output> {
  // Only the options given: an undefined one (mode) would override useForm's default.
  const form = useForm<Values, unknown, Output>({ ...options, resolver: checks.resolver });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const answer = await onSubmit(values, form);
    if (!answer) return;
    if (typeof answer === "string") form.setError("root.server", { type: "server", message: answer });
    else showServerErrors(form.setError, answer.errors, checks.labels);
  });
  return { ...form, submit, errors, formError: errors.root?.server?.message, pending: isSubmitting };
}

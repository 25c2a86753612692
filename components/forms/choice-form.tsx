"use client";

import type { FieldValues, Path } from "react-hook-form";
import { FormError } from "@/components/forms/form-error";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { SubmitButton } from "@/components/forms/submit-button";
import type { ServerForm } from "@/components/forms/use-server-form";

/** What a setting's server action answers: done (a sentence to show), or refused (why). */
export type ChoiceOutcome = { done: string } | { error: string };

/**
 * A store-wide setting chosen among a few (the owners' policies on the Team
 * page): one radio per choice under its legend, the field's error, what the
 * save did or why it was refused, and the button. `form` is the setting's own
 * useServerForm, with its one field `name`; `unavailable` greys out a choice
 * the server would refuse now (it refuses it anyway).
 */
export function ChoiceForm<Values extends FieldValues, Output, Choice extends string>({
  form,
  name,
  legend,
  choices,
  labels,
  current,
  unavailable = () => false,
  submitLabel,
}: {
  form: ServerForm<Values, Output, ChoiceOutcome>;
  name: Path<Values> & string;
  legend: string;
  choices: readonly Choice[];
  labels: Record<Choice, string>;
  current: Choice;
  unavailable?: (choice: Choice) => boolean;
  submitLabel: string;
}) {
  const error = form.errors[name]?.message;
  const outcome = form.done;
  const errorId = `${name}-error`;
  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <fieldset aria-describedby={error ? errorId : undefined}>
        <legend>{legend}</legend>
        {choices.map((value) => (
          <label key={value} className="check">
            <input {...form.register(name)} type="radio" value={value} defaultChecked={value === current} disabled={value !== current && unavailable(value)} /> {labels[value]}
          </label>
        ))}
        <p id={errorId} className="field-error" aria-live="polite">
          {typeof error === "string" ? error : ""}
        </p>
      </fieldset>
      <div role="status">
        <p className="confirmation">{outcome && "done" in outcome ? outcome.done : ""}</p>
      </div>
      <FormError message={outcome && "error" in outcome ? outcome.error : undefined} />
      <SubmitButton pending={form.pending} pendingLabel="Saving…">
        {submitLabel}
      </SubmitButton>
    </HydratedForm>
  );
}

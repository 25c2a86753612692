import type { InputHTMLAttributes, ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

export type DescribedBy = { id: string; "aria-invalid": boolean; "aria-describedby": string | undefined };

/**
 * A labelled input with its hint and error, both tied to it
 * (aria-describedby, aria-invalid), so assistive technology reads them with the field.
 */
export function FormField(props: { id: string; label: string; hint?: string; error: string | undefined; children: (described: DescribedBy) => ReactNode }) {
  const { id, hint, error } = props;
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, "aria-invalid": error !== undefined, "aria-describedby": describedBy || undefined })}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {/* Always present, so screen readers announce a message the moment it appears. */}
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

/** The common case: a text-like input registered with react-hook-form (`register("name")`), in a FormField. */
export function InputField({
  id,
  label,
  hint,
  error,
  registration,
  ...input
}: { id: string; label: string; hint?: string; error: string | undefined; registration: UseFormRegisterReturn } & Omit<InputHTMLAttributes<HTMLInputElement>, "id">) {
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(described) => <input {...registration} {...described} {...input} />}
    </FormField>
  );
}

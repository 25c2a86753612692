import type { InputHTMLAttributes, ReactNode } from "react";
import { type FieldError, type FieldErrors, type FieldValues, get, type Path, type UseFormRegister } from "react-hook-form";

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

/** What InputField needs of a form from useServerForm: its fields' registrations and errors. */
export type RegisteredFields<Values extends FieldValues> = { register: UseFormRegister<Values>; errors: FieldErrors<Values> };

/**
 * The common case: a text-like input of a useServerForm form (`form`), in a
 * FormField. The field `name` gives both its registration and its error, so
 * the two cannot name different fields.
 */
export function InputField<Values extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  ...input
}: { form: RegisteredFields<Values>; name: Path<Values>; id: string; label: string; hint?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "form">) {
  const error = get<FieldErrors<Values>, FieldError | undefined>(form.errors, name)?.message;
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(described) => <input {...form.register(name)} {...described} {...input} />}
    </FormField>
  );
}

/**
 * A field of a useServerForm form (`form`, `name`) whose values are the
 * `options` ticked: a fieldset under its legend, with its error (always
 * present, so screen readers announce a message the moment it appears).
 * Like InputField, it registers the field as it renders, so the fields of a
 * form register in the order they stand, and the first one in error is the
 * one that takes focus.
 */
export function CheckboxesField<Values extends FieldValues>({
  form,
  name,
  id,
  legend,
  options,
  checked,
}: {
  form: RegisteredFields<Values>;
  name: Path<Values>;
  id: string;
  legend: string;
  options: readonly { value: string; label: ReactNode }[];
  /** The values ticked in the server's HTML: the form's defaults. */
  checked: readonly string[];
}) {
  const error = get<FieldErrors<Values>, FieldError | undefined>(form.errors, name);
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map(({ value, label }) => (
        <label key={value} className="check">
          <input {...form.register(name)} type="checkbox" value={value} defaultChecked={checked.includes(value)} /> {label}
        </label>
      ))}
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error?.message}
      </p>
    </fieldset>
  );
}

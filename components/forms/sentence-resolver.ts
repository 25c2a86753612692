import type { FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from "react-hook-form";
import { sentence } from "@/lib/validations/sentence";

/** What each field is called in a form's sentences ("URL" for url); a field left out is named as its message names it. */
export type FieldLabels<TFieldValues extends FieldValues> = Partial<Record<keyof TFieldValues & string, string>>;

/**
 * `resolver` (zodResolver of the shared schema), its every message turned into
 * a sentence that names its field as `labels` say (lib/validations/sentence.ts).
 * The schema and its rules stay one; only the wording the person reads changes.
 */
export function withSentences<TFieldValues extends FieldValues, TContext, TTransformedValues>(
  resolver: Resolver<TFieldValues, TContext, TTransformedValues>,
  labels: FieldLabels<TFieldValues>,
): Resolver<TFieldValues, TContext, TTransformedValues> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    if (Object.keys(result.errors).length === 0) return result;
    return { values: {}, errors: asSentences(result.errors, labels) };
  };
}

/** The message for `field` (a form field's name, or null for the form as a whole) as the form shows it. */
export function fieldSentence<TFieldValues extends FieldValues>(message: string, field: string | null, labels: FieldLabels<TFieldValues>): string {
  return sentence(message, field === null ? undefined : labels[field as keyof FieldLabels<TFieldValues>]);
}

/**
 * Shows what a server action refused (lib/validations/field-errors.ts), each
 * message under its field as a sentence, or on the form; the first field
 * refused takes focus.
 */
export function showServerErrors<TFieldValues extends FieldValues>(
  setError: UseFormSetError<TFieldValues>,
  errors: { field: string | null; message: string }[],
  labels: FieldLabels<TFieldValues>,
): void {
  errors.forEach(({ field, message }, index) =>
    setError((field as Path<TFieldValues> | null) ?? "root.server", { type: "server", message: fieldSentence(message, field, labels) }, { shouldFocus: index === 0 }),
  );
}

// Errors nest as the values do (an error of scopes.0 under scopes); every
// message under a field takes the field's label.
function asSentences<TFieldValues extends FieldValues>(errors: FieldErrors<TFieldValues>, labels: FieldLabels<TFieldValues>): FieldErrors<TFieldValues> {
  const rewritten: Record<string, unknown> = {};
  for (const [field, error] of Object.entries(errors)) rewritten[field] = rewrite(error, (message) => fieldSentence(message, field, labels));
  return rewritten as FieldErrors<TFieldValues>;
}

function rewrite(node: unknown, say: (message: string) => string): unknown {
  if (Array.isArray(node)) return node.map((each) => rewrite(each, say));
  if (typeof node !== "object" || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // A field's element (ref) stays itself; only messages change.
    if (key === "ref") copy[key] = value;
    else if (key === "message" && typeof value === "string") copy[key] = say(value);
    else copy[key] = rewrite(value, say);
  }
  return copy;
}

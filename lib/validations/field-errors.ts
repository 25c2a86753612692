import type { z } from "zod";

// What a form's server action answers when the form's own schema refuses its
// values (JavaScript off, or an old page): each message on the field it names,
// so the form shows it where its own check would have, else on the form.
// Browser-safe: types only from zod.

export type FieldError<Field extends string> = { field: Field | null; message: string };

/** The server action's answer when it refuses the values (components/forms/use-server-form.ts shows it). */
export type FormRefusal<Field extends string> = { errors: FieldError<Field>[] };

/** `error`'s issues, each on the first field of its path when that is one of `fields` (a schema's keyof()). */
export function fieldErrors<Field extends string>(error: z.ZodError, fields: { safeParse(value: unknown): { data?: Field } }): FieldError<Field>[] {
  return error.issues.map((issue) => ({ field: fields.safeParse(issue.path[0]).data ?? null, message: issue.message }));
}

import type { z } from "zod";
import { ApiError } from "@/lib/http/api-error";

/** A 400 naming every field that failed the schema; `whole` names the input itself (the body, the query). */
export function validationError(error: z.ZodError, whole = "(body)"): ApiError {
  const details = error.issues.flatMap((issue) => {
    // An unknown key is itself the field at fault, not the object holding it.
    const fields = issue.code === "unrecognized_keys" ? issue.keys : [issue.path.map(String).join(".") || whole];
    return fields.map((field) => ({ field, message: issue.message }));
  });
  const messages = [...new Set(details.map((detail) => detail.message))];
  return new ApiError("BadRequest", messages.join("; "), { details });
}

/** The input as `schema` reads it, or the 400 that says what is wrong with it. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, whole?: string): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, whole);
  return result.data;
}

/** A 400 for one input that breaks a rule no schema can hold (one that compares it with another input, say). */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError("BadRequest", message, { details: [{ field, message }] });
}

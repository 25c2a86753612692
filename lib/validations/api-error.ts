import { z } from "zod";

// The contract's Error: the body of every non-2xx answer. Described once, for
// the OpenAPI document and for the type of what lib/api-error.ts writes.

export const fieldIssueSchema = z.object({
  field: z.string().describe("The input that failed: a field's path, or (body), (query), (path) for the whole, and in a batch (item) or (row)"),
  message: z.string().describe("What is wrong with it"),
});

export const apiErrorBodySchema = z.object({
  error: z.int32().meta({ format: "int32" }).describe("Numeric error value: the HTTP status of the answer"),
  message: z.string().describe("Error message text, for a human"),
  details: z.array(fieldIssueSchema).optional().describe("On a validation failure, each input that failed"),
});

export type FieldIssue = z.infer<typeof fieldIssueSchema>;
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

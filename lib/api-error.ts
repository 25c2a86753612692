import type { z } from "zod";
import { stringifyExactJson } from "@/lib/exact-json";
import { describeError, log } from "@/lib/log";
import type { ApiErrorBody, FieldIssue } from "@/lib/validations/api-error";

// The one error type of the API and its one mapping to HTTP. Every non-2xx
// answer has the contract's Error body: {"error": <status>, "message": "..."}.

export type { FieldIssue };

export class ApiError extends Error {
  override name = "ApiError";

  constructor(
    readonly status: number,
    message: string,
    readonly extra: { headers?: Record<string, string>; details?: FieldIssue[] } = {},
  ) {
    super(message);
  }
}

/** A 400 naming every field that failed the schema; `whole` names the input itself (the body, the query). */
export function validationError(error: z.ZodError, whole = "(body)"): ApiError {
  const details = error.issues.flatMap((issue) => {
    // An unknown key is itself the field at fault, not the object holding it.
    const fields = issue.code === "unrecognized_keys" ? issue.keys : [issue.path.map(String).join(".") || whole];
    return fields.map((field) => ({ field, message: issue.message }));
  });
  const messages = [...new Set(details.map((detail) => detail.message))];
  return new ApiError(400, messages.join("; "), { details });
}

export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, whole?: string): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, whole);
  return result.data;
}

// Unhandled errors are not for clients: their text may hold SQL, paths or
// worse. The client gets this fixed message and a request id to quote.
const INTERNAL_ERROR_MESSAGE = "internal server error; the request id in X-Request-Id identifies it in the server log";

export function errorResponse(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) {
    const body: ApiErrorBody = { error: error.status, message: error.message, ...(error.extra.details && { details: error.extra.details }) };
    return jsonResponse(body, { status: error.status, headers: { ...error.extra.headers, "x-request-id": requestId } });
  }
  log.error("unhandled error", { requestId, ...describeError(error) });
  const body: ApiErrorBody = { error: 500, message: INTERNAL_ERROR_MESSAGE };
  return jsonResponse(body, { status: 500, headers: { "x-request-id": requestId } });
}

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  headers.set("cache-control", "no-store");
  return new Response(stringifyExactJson(body), { ...init, headers });
}

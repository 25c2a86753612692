import { ERROR_KINDS, type ErrorKindName } from "@/lib/http/error-catalogue";
import type { FieldIssue } from "@/lib/validations/api-error";

/**
 * The one error type of the API: a kind from the catalogue, a message for the
 * client, and the values of the headers that kind carries. Thrown anywhere
 * below a route handler; lib/http/error-response.ts turns it into the answer.
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;

  constructor(
    readonly kind: ErrorKindName,
    message: string,
    readonly extra: { headers?: Record<string, string>; details?: FieldIssue[] } = {},
  ) {
    super(message);
    this.status = ERROR_KINDS[kind].status;
  }
}

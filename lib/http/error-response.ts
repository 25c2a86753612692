import { ApiError } from "@/lib/http/api-error";
import type { ErrorKindName } from "@/lib/http/error-catalogue";
import { jsonResponse } from "@/lib/http/json-response";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { describeError, log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";
import type { ApiErrorBody } from "@/lib/validations/api-error";

// The one mapping from what a handler threw to the answer. The data layer
// throws domain errors that know nothing of HTTP; this table gives each its
// kind. Anything else is a fault: logged, and answered with a fixed 500.

const DOMAIN_ERRORS: readonly (readonly [new (...args: never[]) => Error, ErrorKindName])[] = [
  [PlantConflictError, "Conflict"],
  [PlantNotFoundError, "NotFound"],
];

// Unhandled errors are not for clients: their text may hold SQL, paths or
// worse. The client gets this fixed message and a request id to quote.
const INTERNAL_ERROR_MESSAGE = "internal server error; the request id in X-Request-Id identifies it in the server log";

export function errorResponse(error: unknown, requestId: string): Response {
  const { status, message, extra } = toApiError(error, requestId);
  const body: ApiErrorBody = { error: status, message, ...(extra.details && { details: extra.details }) };
  return jsonResponse(body, { status, headers: { ...extra.headers, "x-request-id": requestId } });
}

function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  const domain = DOMAIN_ERRORS.find(([type]) => error instanceof type);
  if (domain && error instanceof Error) return new ApiError(domain[1], error.message);
  if (isDatabaseError(error)) metrics().databaseErrors.inc();
  log.error("unhandled error", { requestId, ...describeError(error) });
  return new ApiError("InternalError", INTERNAL_ERROR_MESSAGE);
}

/** An error raised by Prisma or a database driver (a lost connection, a dropped table), as opposed to a bug in our own code. */
function isDatabaseError(error: unknown): boolean {
  return error instanceof Error && /^(PrismaClient\w*Error|DriverAdapterError)$/.test(error.name);
}

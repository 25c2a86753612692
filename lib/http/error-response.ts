import { type DatabaseOutage, databaseOutage } from "@/lib/db/database-outage";
import { ApiError } from "@/lib/http/api-error";
import { type ErrorKindName, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/error-catalogue";
import { jsonResponse } from "@/lib/http/json-response";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";
import type { ApiErrorBody } from "@/lib/validations/api-error";

// The one mapping from what a handler threw to the answer. The data layer
// throws domain errors that know nothing of HTTP; this table gives each its
// kind. A database that cannot be used just now is a 503 (issue 20).
// Anything else is a fault: logged, and answered with a fixed 500.

const DOMAIN_ERRORS: readonly (readonly [new (...args: never[]) => Error, ErrorKindName])[] = [
  [PlantConflictError, "Conflict"],
  [PlantNotFoundError, "NotFound"],
];

// Unhandled errors are not for clients: their text may hold SQL, paths or
// worse. The client gets this fixed message and a request id to quote.
const INTERNAL_ERROR_MESSAGE = "internal server error; the request id in X-Request-Id identifies it in the server log";

/** The Error answer for what a request (of this method) threw. */
export function errorResponse(error: unknown, requestId: string, method: string): Response {
  return apiErrorResponse(toApiError(error, requestId, method), requestId);
}

/** The Error answer of an ApiError: its status, the one body, the headers its kind carries, and the request id. */
export function apiErrorResponse({ status, message, extra }: ApiError, requestId: string): Response {
  const body: ApiErrorBody = { error: status, message, ...(extra.details && { details: extra.details }) };
  return jsonResponse(body, { status, headers: { ...extra.headers, "x-request-id": requestId } });
}

function toApiError(error: unknown, requestId: string, method: string): ApiError {
  if (error instanceof ApiError) return error;
  const domain = DOMAIN_ERRORS.find(([type]) => error instanceof type);
  if (domain && error instanceof Error) return new ApiError(domain[1], error.message);
  const outage = databaseOutage(error);
  if (outage) {
    metrics().databaseErrors.inc({ kind: outage });
    // The database's trouble, not the app's: the database's own monitoring, and the counter, tell it.
    log.warn("the database cannot be used; answered 503", { requestId, outage, ...describeError(error) });
    return new ApiError("ServiceUnavailable", outageMessage(outage, method), { headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } });
  }
  if (isDatabaseError(error)) metrics().databaseErrors.inc({ kind: "other" });
  log.error("unhandled error", { requestId, ...describeError(error) });
  return new ApiError("InternalError", INTERNAL_ERROR_MESSAGE);
}

const OUTAGES: Record<DatabaseOutage, string> = {
  lost: "the connection to the database was lost",
  unreachable: "the database cannot be reached",
  busy: "the database is busy with another process's write",
};
// Busy on PostgreSQL: every connection of the pool stayed in use past the wait for one (DATABASE_POOL_SIZE).
const BUSY_POSTGRES = "the database is busy: no connection of the pool came free in time";

function outageWords(outage: DatabaseOutage): string {
  return outage === "busy" && env().database.provider === "postgresql" ? BUSY_POSTGRES : OUTAGES[outage];
}

// RFC 9110 section 9.2.1: a safe method changes nothing, so nothing about it is left in doubt.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A write whose connection broke under it ("lost") may have committed before
 * its answer was lost, and is never repeated blindly: the client is told that
 * the outcome is not known, and that repeating the request is safe, since
 * every write of the API is idempotent (docs: a repeated create answers the
 * stored plant with Idempotent-Replayed). What a client was told is stored
 * is. Unreachable and busy mean no statement ran: nothing was changed.
 */
function outageMessage(outage: DatabaseOutage, method: string): string {
  const retry = `after ${UNAVAILABLE_RETRY_AFTER_SECONDS} s (Retry-After)`;
  if (SAFE_METHODS.has(method)) return `${outageWords(outage)}; try again ${retry}`;
  if (outage !== "lost") return `${outageWords(outage)}, so nothing was changed; try again ${retry}`;
  return `${outageWords(outage)}, so whether this change was made is not known; repeating the request is safe, ${retry}`;
}

/** An error raised by Prisma or a database driver (a dropped table, say), as opposed to a bug in our own code. */
function isDatabaseError(error: unknown): boolean {
  return error instanceof Error && /^(PrismaClient\w*Error|DriverAdapterError)$/.test(error.name);
}

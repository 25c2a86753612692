import { MAX_BATCH_BODY_BYTES, MAX_BODY_BYTES } from "@/lib/http/body-limits";
import { MAX_HEADER_BYTES } from "@/lib/http/header-limits";

// Every kind of error the API answers, defined once: its status, a short
// title, what the OpenAPI document says of it, and the headers it always
// carries. Code throws a kind by name (new ApiError("Conflict", ...)); the
// document's components/responses are this table. Every answer has the one
// Error body, {"error": <status>, "message": "...", "details"?: [...]}.

type ErrorKind = {
  status: number;
  title: string;
  description: string;
  /** Header name to its description, for headers every answer of this kind carries. */
  headers?: Record<string, string>;
};

/**
 * Retry-After on a 503. The app replaces a lost connection with the next
 * statement, so a client that waits a second mostly finds the database
 * answering again (a terminated backend, a restart that is over); while it
 * is down for longer, a repeat every second costs the app one refused
 * connection, and a client may always wait longer (RFC 9110 section 10.2.3).
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

const CHALLENGE = 'The RFC 6750 challenge, e.g. Bearer realm="plant-store", error="invalid_token"';

export const ERROR_KINDS = {
  BadRequest: {
    status: 400,
    title: "Bad Request",
    description: "The request is malformed: the message says how, and `details` names each input that failed validation",
  },
  Unauthorized: {
    status: 401,
    title: "Unauthorized",
    description: "No bearer token, or one that is malformed, unknown, expired or revoked, or whose account is deactivated (it works again once the account is reactivated); for the app's own pages, a staff session that has ended",
    headers: { "WWW-Authenticate": CHALLENGE },
  },
  Forbidden: {
    status: 403,
    title: "Forbidden",
    description: "The bearer token lacks the scope this operation needs",
    headers: { "WWW-Authenticate": CHALLENGE },
  },
  NotFound: { status: 404, title: "Not Found", description: "No plant has this id" },
  MethodNotAllowed: {
    status: 405,
    title: "Method Not Allowed",
    description: "The path does not support the method; Allow lists the methods it does",
    headers: { Allow: "The methods the path supports" },
  },
  NotAcceptable: {
    status: 406,
    title: "Not Acceptable",
    description: "The Accept header asks for none of the media types the operation answers with (application/json, and text/csv for the list)",
  },
  RequestTimeout: {
    status: 408,
    title: "Request Timeout",
    description: "The request's headers, or the whole request, did not arrive within the server's time limits; the connection is closed",
  },
  Conflict: { status: 409, title: "Conflict", description: "A plant with this id already exists with a different name or tag" },
  Gone: {
    status: 410,
    title: "Gone",
    description:
      "The change feed cannot resume from the position in Last-Event-ID or ?after=: changes that old are no longer kept (CHANGE_FEED_RETENTION), or the position is past the newest (another store's, or one restored from an older backup). Re-read the plants, then follow from now",
  },
  PreconditionFailed: {
    status: 412,
    title: "Precondition Failed",
    description:
      "A condition of the request is false: If-Match names no current version of the plant (someone changed it meanwhile), or, on a change or delete, If-None-Match names the current one (or is `*`); nothing was changed",
    headers: { ETag: "The plant's current version" },
  },
  PayloadTooLarge: { status: 413, title: "Content Too Large", description: `The request body is larger than ${MAX_BODY_BYTES} bytes (${MAX_BATCH_BODY_BYTES} for a batch)` },
  UnsupportedMediaType: {
    status: 415,
    title: "Unsupported Media Type",
    description:
      "The request body is not application/json in UTF-8 (nor, for a batch, text/csv; nor, for a change, application/merge-patch+json: Accept-Patch lists what PATCH takes)",
  },
  ExpectationFailed: {
    status: 417,
    title: "Expectation Failed",
    description: "The Expect header asks for something other than 100-continue, the only expectation the server meets",
  },
  HeaderFieldsTooLarge: {
    status: 431,
    title: "Request Header Fields Too Large",
    description: `The request line and headers together are larger than the ${MAX_HEADER_BYTES} bytes the server reads; the connection is closed`,
  },
  TooManyRequests: {
    status: 429,
    title: "Too Many Requests",
    description: "The token, or the address of a client without valid credentials, has used up its rate limit; wait as Retry-After says",
    headers: {
      "Retry-After": "Seconds to wait before trying again",
      "RateLimit-Policy": 'The limit, as the IETF httpapi draft writes it, e.g. "api";q=6000;w=60',
      RateLimit: 'What is left of it and for how long, e.g. "api";r=0;t=42',
    },
  },
  ServiceUnavailable: {
    status: 503,
    title: "Service Unavailable",
    description:
      "The database cannot be used just now: it cannot be reached, a connection to it was lost, or (SQLite) another process holds its write lock. " +
      "When a connection was lost under a write, whether it was made is not known, and repeating it is safe. From /readyz: the instance is not ready (shutting down, without its database, or a migration pending)",
    headers: { "Retry-After": `Seconds to wait before trying again: ${UNAVAILABLE_RETRY_AFTER_SECONDS}` },
  },
  HttpVersionNotSupported: {
    status: 505,
    title: "HTTP Version Not Supported",
    description: "The request is not HTTP/1.0 or HTTP/1.1, the versions the server speaks (over TLS, a proxy in front may speak HTTP/2)",
  },
  InternalError: {
    status: 500,
    title: "Internal Server Error",
    description: "An unexpected error; X-Request-Id identifies it in the server log",
    headers: { "X-Request-Id": "The request's id in the server log" },
  },
} as const satisfies Record<string, ErrorKind>;

export type ErrorKindName = keyof typeof ERROR_KINDS;

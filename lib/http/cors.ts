import { env } from "@/lib/server/env";

// CORS for the API, off unless CORS_ORIGINS lists browser origins. Those
// origins may call it with a bearer token; credentials (cookies) are never
// allowed across origins: a staff session works from the app's own pages only.

// What a browser script on an allowed origin may read of an answer: the
// list's count (Prefer: count=exact), a CSV export's file name, ETag, so
// that a browser client changes a plant safely (If-Match) as any other does,
// and Idempotent-Replayed, so that it tells a plant it stored from one that
// was already stored.
const EXPOSED_HEADERS = [
  "Link",
  "X-Request-Id",
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
  "X-Total-Count",
  "Preference-Applied",
  "Content-Disposition",
  "ETag",
  "Idempotent-Replayed",
];
// Accept is CORS-safelisted; Prefer and the conditional headers are not, so a preflight must allow them.
const ALLOWED_REQUEST_HEADERS = ["Authorization", "Content-Type", "Prefer", "If-Match", "If-None-Match"];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

function allowedOrigin(request: Request): string | undefined {
  const origin = request.headers.get("origin");
  return origin !== null && env().corsOrigins.includes(origin) ? origin : undefined;
}

/** The CORS headers of an API answer: the origin's, if it is allowed; Vary either way once CORS is on. */
export function corsHeaders(request: Request): Record<string, string> {
  if (env().corsOrigins.length === 0) return {};
  const origin = allowedOrigin(request);
  return { vary: "Origin", ...(origin && { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS.join(", ") }) };
}

/** The answer to a CORS preflight from an allowed origin, or undefined for any other OPTIONS request. */
export function preflightResponse(request: Request, allow: string): Response | undefined {
  const origin = allowedOrigin(request);
  if (!origin || request.headers.get("access-control-request-method") === null) return undefined;
  return new Response(null, {
    status: 204,
    headers: {
      allow,
      vary: "Origin",
      "access-control-allow-origin": origin,
      "access-control-allow-methods": allow,
      "access-control-allow-headers": ALLOWED_REQUEST_HEADERS.join(", "),
      "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  });
}

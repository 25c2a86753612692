import { ApiError } from "@/lib/api-error";
import { env } from "@/lib/env";
import { appOrigin, isSameOriginRequest } from "@/lib/same-origin";
import { sessionUserId } from "@/lib/session-cookie";
import { type ApiTokenInfo, checkApiToken } from "@/lib/tokens";
import { findUser, type StaffUser } from "@/lib/users";
import { SCOPES, type Scope } from "@/lib/validations/api-token";

// RFC 6750 bearer authentication, called by every handler that touches data.
// The staff app's own pages call the API with their session cookie instead.

/** Who is calling: an API token, or a staff member through the app's pages. */
export type Caller = { kind: "token"; token: ApiTokenInfo } | { kind: "staff"; user: StaffUser; scopes: readonly Scope[] };

// A signed-in staff member may do through the app whatever a token may do.
const STAFF_SCOPES = SCOPES;

const REALM = "plant-store";

// RFC 6750 section 2.1: b64token. The scheme name is case-insensitive (RFC 9110 section 11.1).
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const REJECTIONS = {
  invalid: "the bearer token is not valid",
  expired: "the bearer token has expired",
  revoked: "the bearer token has been revoked",
} as const;

/**
 * The caller, if it may use `scope` now; throws the RFC 6750 answer otherwise.
 * An Authorization header, when present, always decides. Without one, a staff
 * session cookie is accepted, but only on a request from this app's own
 * origin, so another site cannot act with a staff member's cookie (CSRF).
 */
export async function requireScope(request: Request, scope: Scope): Promise<Caller> {
  const header = request.headers.get("authorization");
  if (header === null || header.trim() === "") {
    const user = await sessionUser(request);
    if (!user) throw challenge(401, "authentication required: send Authorization: Bearer <token>");
    if (!isSameOriginRequest(request, appOrigin(request, env().authUrl))) {
      throw new ApiError(403, "a staff session is accepted only from this app's own pages; other clients must send a bearer token");
    }
    if (!grants(STAFF_SCOPES, scope)) throw new ApiError(403, `staff sessions lack the ${scope} scope`);
    return { kind: "staff", user, scopes: STAFF_SCOPES };
  }
  if (!/^bearer(\s|$)/i.test(header)) {
    throw challenge(401, "unsupported authorization scheme: send Authorization: Bearer <token>");
  }
  const token = BEARER_CREDENTIALS.exec(header)?.[1];
  if (token === undefined) throw challenge(401, "the bearer token is malformed", { error: "invalid_token" });
  const check = await checkApiToken(token);
  if (!check.ok) throw challenge(401, REJECTIONS[check.reason], { error: "invalid_token" });
  if (!grants(check.info.scopes, scope)) {
    throw challenge(403, `the bearer token lacks the ${scope} scope`, { error: "insufficient_scope", scope });
  }
  return { kind: "token", token: check.info };
}

async function sessionUser(request: Request): Promise<StaffUser | null> {
  const userId = await sessionUserId(request);
  return userId ? findUser(userId) : null;
}

/** plants:write includes plants:read: a client that may change plants may see them. */
export function grants(held: readonly Scope[], needed: Scope): boolean {
  return held.includes(needed) || (needed === "plants:read" && held.includes("plants:write"));
}

function challenge(status: 401 | 403, message: string, params: Record<string, string> = {}): ApiError {
  const attributes = Object.entries({ realm: REALM, ...params, ...(params.error && { error_description: message }) })
    .map(([key, value]) => `${key}="${value}"`)
    .join(", ");
  return new ApiError(status, message, { headers: { "www-authenticate": `Bearer ${attributes}` } });
}

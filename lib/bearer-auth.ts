import { ApiError } from "@/lib/api-error";
import { type ApiTokenInfo, checkApiToken, type Scope } from "@/lib/tokens";

// RFC 6750 bearer authentication, called by every handler that touches data.

const REALM = "plant-store";

// RFC 6750 section 2.1: b64token. The scheme name is case-insensitive (RFC 9110 section 11.1).
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const REJECTIONS = {
  invalid: "the bearer token is not valid",
  expired: "the bearer token has expired",
  revoked: "the bearer token has been revoked",
} as const;

/** The token behind the request, if it is valid now and grants `scope`; throws the RFC 6750 answer otherwise. */
export async function requireScope(request: Request, scope: Scope): Promise<ApiTokenInfo> {
  const header = request.headers.get("authorization");
  if (header === null || header.trim() === "") {
    throw challenge(401, "authentication required: send Authorization: Bearer <token>");
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
  return check.info;
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

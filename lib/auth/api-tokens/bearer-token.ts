import type { ApiTokenInfo } from "@/lib/auth/api-tokens/api-tokens";
import { checkApiToken } from "@/lib/auth/api-tokens/token-check";
import { ApiError } from "@/lib/http/api-error";
import { grants, type Scope } from "@/lib/validations/api-token";

// RFC 6750 bearer authentication: reads the Authorization header, checks the
// token, and answers refusals with the challenge the RFC prescribes.

const REALM = "plant-store";

// RFC 6750 section 2.1: b64token. The scheme name is case-insensitive (RFC 9110 section 11.1).
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const REJECTIONS = {
  invalid: "the bearer token is not valid",
  expired: "the bearer token has expired",
  revoked: "the bearer token has been revoked",
  deactivated: "the bearer token's account is deactivated",
} as const;

/** The token the Authorization header presents, if it may use `scope` now; throws the RFC 6750 answer otherwise. */
export async function authenticateBearer(header: string, scope: Scope): Promise<ApiTokenInfo> {
  if (!/^bearer(\s|$)/i.test(header)) {
    throw bearerChallenge("Unauthorized", "unsupported authorization scheme: send Authorization: Bearer <token>");
  }
  const token = BEARER_CREDENTIALS.exec(header)?.[1];
  if (token === undefined) throw bearerChallenge("Unauthorized", "the bearer token is malformed", { error: "invalid_token" });
  const check = await checkApiToken(token);
  if (!check.ok) throw bearerChallenge("Unauthorized", REJECTIONS[check.reason], { error: "invalid_token" });
  if (!grants(check.info.scopes, scope)) {
    throw bearerChallenge("Forbidden", `the bearer token lacks the ${scope} scope`, { error: "insufficient_scope", scope });
  }
  return check.info;
}

/** A refusal with its WWW-Authenticate challenge (RFC 6750 section 3.1): 400 invalid_request, 401 (no error code when no credentials were sent), 403 insufficient_scope. */
export function bearerChallenge(kind: "BadRequest" | "Unauthorized" | "Forbidden", message: string, params: Record<string, string> = {}): ApiError {
  const attributes = Object.entries({ realm: REALM, ...params, ...(params.error && { error_description: message }) })
    .map(([key, value]) => `${key}="${value}"`)
    .join(", ");
  return new ApiError(kind, message, { headers: { "www-authenticate": `Bearer ${attributes}` } });
}

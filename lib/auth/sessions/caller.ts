import type { ApiTokenInfo } from "@/lib/auth/api-tokens/api-tokens";
import { authenticateBearer, bearerChallenge } from "@/lib/auth/api-tokens/bearer-token";
import { appOrigin, isSameOriginRequest } from "@/lib/auth/same-origin";
import { secondFactorStanding } from "@/lib/auth/second-factors/second-factor-policy";
import { readSessionCookie } from "@/lib/auth/sessions/session-cookie";
import { findSessionUser, type StaffUser } from "@/lib/auth/accounts/users";
import { ApiError } from "@/lib/http/api-error";
import { env } from "@/lib/server/env";
import { grants, SCOPES, type Scope } from "@/lib/validations/api-token";

// Who is calling the API: a program with a bearer token, or a staff member
// through the app's own pages with their session cookie.

export type Caller = { kind: "token"; token: ApiTokenInfo } | { kind: "staff"; user: StaffUser; scopes: readonly Scope[] };

// A signed-in staff member may do through the app whatever a token may do.
const STAFF_SCOPES = SCOPES;

/**
 * The caller, if it may use `scope` now; throws the answer otherwise. An
 * Authorization header, when present, always decides. Without one, a staff
 * session cookie is accepted, but only on a request from this app's own
 * origin, so another site cannot act with a staff member's cookie (CSRF).
 */
export async function authenticateCaller(request: Request, scope: Scope): Promise<Caller> {
  const header = request.headers.get("authorization");
  if (header !== null && header.trim() !== "") return { kind: "token", token: await authenticateBearer(header, scope) };
  const session = await readSessionCookie(request.headers.get("cookie"));
  const user = session ? await findSessionUser(session.userId, session.signedInAt) : null;
  if (!user) throw bearerChallenge("Unauthorized", "authentication required: send Authorization: Bearer <token>");
  if (!isSameOriginRequest(request, appOrigin(request, env().authUrl))) {
    throw new ApiError("Forbidden", "a staff session is accepted only from this app's own pages; other clients must send a bearer token");
  }
  if (!grants(STAFF_SCOPES, scope)) throw new ApiError("Forbidden", `staff sessions lack the ${scope} scope`);
  // The owners' second-factor policy holds here as on the staff pages (lib/auth/sessions/require-staff.ts): a session it holds does nothing.
  const standing = await secondFactorStanding(user, session?.factor);
  if (standing === "set_up") throw new ApiError("Forbidden", "this store requires a second factor of you: set one up on your Account page first");
  if (standing === "sign_in_again") throw new ApiError("Forbidden", "your account has a second factor: sign in again with it");
  return { kind: "staff", user, scopes: STAFF_SCOPES };
}

import { encode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { SESSION_MAX_AGE_SECONDS } from "@/lib/auth/sessions/auth-options";
import { sessionClaims, sessionCookieName } from "@/lib/auth/sessions/session-cookie";
import type { SessionFactor } from "@/lib/auth/session-factor";
import type { StaffUser } from "@/lib/auth/accounts/users";
import { env } from "@/lib/server/env";

// After a person ends their other sessions (a new password, "sign out
// everywhere", a passkey added or removed), the session that asked must go on:
// a server action gives its browser a new session cookie, dated at the cut-off
// the change set, made as next-auth makes its own (an encrypted JWT with the
// same claims and lifetime).

/**
 * Sets this request's session cookie to a new session of `user`, signed in at
 * `signedInAt`, with `factor`; by default the factor the current session was
 * signed in with: ending other sessions proves no new factor.
 */
export async function reissueSession(user: StaffUser, signedInAt: Date, factor?: SessionFactor): Promise<void> {
  const store = await cookies();
  const kept = factor ?? (await sessionClaims((name) => store.get(name)?.value))?.factor;
  const token = await encode({
    token: { sub: user.id, name: user.name, email: user.email, signedInAt: signedInAt.getTime(), ...(kept && { factor: kept }) },
    secret: env().authSecret,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  const name = sessionCookieName();
  store.set(name, token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: name.startsWith("__Secure-"),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { signInPath } from "@/lib/auth/sessions/callback-url";
import { secondFactorStanding, type SecondFactorStanding } from "@/lib/auth/second-factors/second-factor-policy";
import { sessionClaims } from "@/lib/auth/sessions/session-cookie";
import { findSessionUser, type StaffUser } from "@/lib/auth/accounts/users";
import type { SessionFactor } from "@/lib/auth/session-factor";

// Called by every staff page and every server action before it touches data.
// Middleware alone is not a guard: CVE-2025-29927 skipped it with one header.
//
// The owners' second-factor policy (issue 24) is enforced here too, on every
// page and action: a person the policy requires to have a second factor, who
// has none, is sent to the Account page to set one up and can open nothing
// else (FACTOR_SETUP_PATHS); a person who has one, in a session that did not
// pass it, signs in again. Sign-out is next-auth's own route, never held.

/** Where a person the policy holds is sent: the Account page's second-factor section. */
export const SECOND_FACTOR_SETUP_PATH = "/account#second-factor";

/**
 * The pages and actions (by the path they pass as `returnPath`) a person the
 * policy holds may still use: the Account page, where factors are set up.
 */
const FACTOR_SETUP_PATHS: ReadonlySet<string> = new Set(["/account"]);

/** The signed-in staff member; anyone else is sent to sign-in and back to `returnPath`. */
export async function requireStaff(returnPath: string): Promise<StaffUser> {
  return (await requireStaffSession(returnPath)).user;
}

/**
 * The signed-in owner, for what only owners manage (webhooks). Anyone signed
 * out is sent to sign-in; staff who are not owners meet a 404, as if the page
 * or action did not exist.
 */
export async function requireOwner(returnPath: string): Promise<StaffUser> {
  const user = await requireStaff(returnPath);
  if (user.role !== "owner") notFound();
  return user;
}

/** A signed-in staff member's session: who, and how they signed in. */
export type StaffSession = { user: StaffUser; factor: SessionFactor | undefined; standing: SecondFactorStanding };

/** requireStaff's session with its `factor`, for actions that ask how it was signed in (creating an API token). */
export async function requireStaffSession(returnPath: string): Promise<StaffSession> {
  const session = await currentStaffSession();
  if (!session) redirect(signInPath(returnPath));
  if (session.standing === "sign_in_again") redirect(signInAgainPath(returnPath));
  if (session.standing === "set_up" && !FACTOR_SETUP_PATHS.has(returnPath)) redirect(SECOND_FACTOR_SETUP_PATH);
  return session;
}

/** Sign-in, saying why, for a session that did not pass the person's second factor. */
function signInAgainPath(returnPath: string): string {
  const path = signInPath(returnPath);
  return `${path}${path.includes("?") ? "&" : "?"}again=second-factor`;
}

/**
 * The signed-in staff member, or null. The session is checked against its
 * account in the database on every request, so that on every instance at once
 * a deactivated account, or a session older than the account's last "end every
 * session", is no one. Cached per request, as layout and page both ask.
 */
export const currentStaff = cache(async (): Promise<StaffUser | null> => (await currentStaffSession())?.user ?? null);

/** The signed-in staff member's session and where it stands with the second-factor policy, or null; cached per request. */
export const currentStaffSession = cache(async (): Promise<StaffSession | null> => {
  const store = await cookies();
  const session = await sessionClaims((name) => store.get(name)?.value);
  if (!session) return null;
  const user = await findSessionUser(session.userId, session.signedInAt);
  if (!user) return null;
  return { user, factor: session.factor, standing: await secondFactorStanding(user, session.factor) };
});

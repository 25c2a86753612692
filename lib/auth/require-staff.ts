import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { signInPath } from "@/lib/auth/callback-url";
import { sessionClaims } from "@/lib/auth/session-cookie";
import { findSessionUser, type StaffUser } from "@/lib/auth/users";

// Called by every staff page and every server action before it touches data.
// Middleware alone is not a guard: CVE-2025-29927 skipped it with one header.

/** The signed-in staff member; anyone else is sent to sign-in and back to `returnPath`. */
export async function requireStaff(returnPath: string): Promise<StaffUser> {
  const user = await currentStaff();
  if (!user) redirect(signInPath(returnPath));
  return user;
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

/**
 * The signed-in staff member, or null. The session is checked against its
 * account in the database on every request, so that on every instance at once
 * a deactivated account, or a session older than the account's last "end every
 * session", is no one. Cached per request, as layout and page both ask.
 */
export const currentStaff = cache(async (): Promise<StaffUser | null> => {
  const store = await cookies();
  const session = await sessionClaims((name) => store.get(name)?.value);
  return session ? findSessionUser(session.userId, session.signedInAt) : null;
});

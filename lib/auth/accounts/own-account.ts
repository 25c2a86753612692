import { accountRecord, changedFields } from "@/lib/activity/account-records";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { EmailTakenError, TooManyAttemptsError, WrongPasswordError } from "@/lib/auth/account-errors";
import { requireStrongPassword } from "@/lib/auth/passwords/password-strength";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords/passwords";
import { toStaffUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db, Prisma } from "@/lib/db/client";
import { blockedFor, countFailure } from "@/lib/http/rate-limit";
import type { ProfileChange } from "@/lib/validations/user";

// What a signed-in person changes of their own account (the Account page):
// their name and email, their password, and "sign out everywhere". Callers
// pass the signed-in account; nobody changes another's account here.
//
// A new password and "sign out everywhere" end every other session of the
// account at once, on every instance: they move the account's cut-off
// (sessions_valid_from), which every request checks (findSessionUser). The
// caller gives its own session a new cookie dated at the cut-off
// (lib/auth/sessions/session-reissue.ts), so the person stays signed in where they are.
//
// A change is recorded (issue 22) in its transaction, by `by` (the person
// themself): a profile's changed fields, a password's change as the fact
// alone. A refused change (a wrong current password, a taken email) records
// nothing: it is refused before the transaction, or rolls it back.

/** The account after a change that ends its other sessions, and the cut-off to date the caller's new session at. */
export type SessionsEnded = { user: StaffUser; sessionsValidFrom: Date };

/**
 * Changes the account's name, and its email: a new email needs the current
 * password (a session left open must not hand the account to whoever finds
 * it), and withdraws pending reset links, which went to the old address.
 */
export async function updateProfile(user: StaffUser, change: ProfileChange, by: Attribution): Promise<StaffUser> {
  const emailChanges = change.email !== user.email;
  if (emailChanges) await requireCurrentPassword(user, change.currentPassword);
  try {
    return await db().$transaction(async (tx) => {
      const now = new Date();
      if (emailChanges) {
        await tx.accountLink.updateMany({ where: { userId: user.id, purpose: "password_reset", usedAt: null, withdrawnAt: null }, data: { withdrawnAt: now } });
      }
      const before = toStaffUser(await tx.user.findUniqueOrThrow({ where: { id: user.id } }));
      const after = toStaffUser(await tx.user.update({ where: { id: user.id }, data: { name: change.name, email: change.email } }));
      const changes = changedFields(before, after, ["name", "email"]);
      if (changes) await recordActivity(tx, [accountRecord("account.changed", user.id, changes, by)], now);
      return after;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new EmailTakenError(change.email);
    throw error;
  }
}

/**
 * Sets a new password, given the current one, and ends every other session:
 * whoever knew the old password is signed out. Pending reset links are
 * withdrawn. Throws WrongPasswordError, TooManyAttemptsError, WeakPasswordError.
 */
export async function changePassword(user: StaffUser, currentPassword: string, newPassword: string, by: Attribution): Promise<SessionsEnded> {
  await requireCurrentPassword(user, currentPassword);
  await requireStrongPassword(newPassword, user);
  const passwordHash = await hashPassword(newPassword);
  return db().$transaction(async (tx) => {
    const now = new Date();
    await tx.accountLink.updateMany({ where: { userId: user.id, purpose: "password_reset", usedAt: null, withdrawnAt: null }, data: { withdrawnAt: now } });
    const row = await tx.user.update({ where: { id: user.id }, data: { passwordHash, sessionsValidFrom: now } });
    // The fact alone, no password nor hash; its time is the cut-off: every other session signed in before it ended.
    await recordActivity(tx, [accountRecord("password.changed", user.id, {}, by)], now);
    return { user: toStaffUser(row), sessionsValidFrom: now };
  });
}

/** "Sign out everywhere": every session of the account issued before now ends on its next request. */
export async function endOtherSessions(user: StaffUser): Promise<SessionsEnded> {
  const now = new Date();
  const row = await db().user.update({ where: { id: user.id }, data: { sessionsValidFrom: now } });
  return { user: toStaffUser(row), sessionsValidFrom: now };
}

/**
 * The current password must be the account's. Wrong ones count as failed
 * sign-ins of the account, and are refused alike once too many have failed,
 * so an open session is no way around sign-in's limit on guessing.
 */
export async function requireCurrentPassword(user: StaffUser, password: string): Promise<void> {
  const wait = await blockedFor("signInAccount", user.email);
  if (wait !== undefined) throw new TooManyAttemptsError(wait);
  const row = await db().user.findUnique({ where: { id: user.id }, select: { passwordHash: true } });
  if (row && (await verifyPassword(row.passwordHash, password))) return;
  await countFailure("signInAccount", user.email);
  throw new WrongPasswordError();
}

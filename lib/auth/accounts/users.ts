import { randomUUID } from "node:crypto";
import { accountRecord, NO_ACCOUNT } from "@/lib/activity/account-records";
import { APP_ACTOR, type Attribution, personActor, type RequestOrigin } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { EmailTakenError } from "@/lib/auth/account-errors";
import { requireStrongPassword } from "@/lib/auth/passwords/password-strength";
import { db, Prisma, type User } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";
import { hashPassword, spendVerifyTime, verifyPassword } from "@/lib/auth/passwords/passwords";
import type { SessionFactor } from "@/lib/auth/session-factor";
import { emailSchema, type NewUser, type Role, ROLES } from "@/lib/validations/user";

// Staff accounts; returns plain objects without the password hash. The team's
// operations (roles, deactivation, the listing) are lib/auth/accounts/team.ts; the
// one-time links that invite and reset, lib/auth/accounts/account-links.ts.
// Accounts made here, and sign-ins, are recorded in the activity record
// (issue 22) in the transaction that writes them.

export { EmailTakenError } from "@/lib/auth/account-errors";

export type StaffUser = Pick<User, "id" | "email" | "name"> & { role: Role };

export function toStaffUser(row: User): StaffUser {
  return { id: row.id, email: row.email, name: row.name, role: toRole(row.role) };
}

/** The column is free text; anything unknown gets the lesser role. */
export function toRole(text: string): Role {
  return (ROLES as readonly string[]).includes(text) ? (text as Role) : "staff";
}

export async function hasAnyUser(): Promise<boolean> {
  return (await db().user.findFirst({ select: { id: true } })) !== null;
}

/**
 * The account, while it is active: a deactivated (or deleted) account is no
 * one, so deactivating it ends its sessions on their next request.
 */
export async function findUser(id: string): Promise<StaffUser | null> {
  const row = await db().user.findUnique({ where: { id } });
  return row && !row.deactivatedAt ? toStaffUser(row) : null;
}

/**
 * The account a session signed in at `signedInAt` belongs to, while the session
 * counts: the account is active and no password change, reset, deactivation or
 * "sign out everywhere" has voided the sessions issued before it
 * (sessions_valid_from). A session signed in at the cut-off itself counts: the
 * one that made the cut-off is issued again with it (lib/auth/sessions/session-reissue.ts),
 * and a sign-in is never dated before it (authenticate), whatever the clocks of
 * the instances say.
 */
export async function findSessionUser(id: string, signedInAt: Date): Promise<StaffUser | null> {
  const row = await db().user.findUnique({ where: { id } });
  if (!row || row.deactivatedAt) return null;
  if (row.sessionsValidFrom && signedInAt.getTime() < row.sessionsValidFrom.getTime()) return null;
  return toStaffUser(row);
}

/** The id of the account with this email (compared lower-cased, as stored), active or not. */
export async function findUserIdByEmail(email: string): Promise<string | null> {
  return (await db().user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } }))?.id ?? null;
}

export async function listUsers(): Promise<StaffUser[]> {
  return (await db().user.findMany({ orderBy: { createdAt: "asc" } })).map(toStaffUser);
}

/** Creates an account for someone (the CLI, by `by`); refuses a password that is easy to guess (WeakPasswordError) or a taken email. */
export async function createUser(input: NewUser, by: Attribution): Promise<StaffUser> {
  await requireStrongPassword(input.password, input);
  const data = { id: randomUUID(), email: input.email, name: input.name, role: input.role, passwordHash: await hashPassword(input.password) };
  try {
    return await db().$transaction(async (tx) => {
      const user = toStaffUser(await tx.user.create({ data }));
      await recordActivity(tx, [accountRecord("account.created", user.id, { after: { name: user.name, email: user.email, role: user.role } }, by)]);
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError(input.email);
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Creates the first account, an owner, only while no account exists. The
 * check and the insert are one statement in a SERIALIZABLE transaction, so of
 * two setups racing (two tabs, two app instances) exactly one wins: SQLite
 * runs one writer at a time, and PostgreSQL fails a loser rather than let two
 * see an empty table; the loser tries again and then sees the winner's row.
 * null means another account got there first. The owner is recorded as
 * having joined, by themself, from `origin`.
 */
export async function createFirstOwner(input: Omit<NewUser, "role">, origin: RequestOrigin | null): Promise<StaffUser | null> {
  await requireStrongPassword(input.password, input);
  const user: StaffUser = { id: randomUUID(), email: input.email, name: input.name, role: "owner" };
  const passwordHash = await hashPassword(input.password);
  const inserted = await serializableTransaction(async (tx) => {
    const now = new Date();
    const count = await tx.$executeRaw`
      INSERT INTO "users" ("id", "email", "name", "role", "password_hash", "created_at")
      SELECT ${user.id}, ${user.email}, ${user.name}, ${user.role}, ${passwordHash}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM "users")`;
    if (count === 1) {
      await recordActivity(tx, [accountRecord("account.joined", user.id, { after: { name: user.name, email: user.email, role: user.role } }, { actor: personActor(user), origin })], now);
    }
    return count;
  });
  return inserted === 1 ? user : null;
}

/** An account that has just signed in, and the moment its session counts from. */
export type SignedInUser = StaffUser & { signedInAt: Date };
/** A signed-in account, and how it proved who it is (the session's factor claim). */
export type FactorSignIn = SignedInUser & { factor: SessionFactor };

/**
 * The account these credentials open, signed in with the password alone, or
 * null. For an account with an authenticator app, sign-in (auth-options.ts)
 * calls checkPassword and asks for a code before recordSignIn instead.
 */
export async function authenticate(email: string, password: string, origin: RequestOrigin | null): Promise<FactorSignIn | null> {
  const user = await checkPassword(email, password, origin);
  return user && recordSignIn(user, "password", origin);
}

/**
 * The active account whose password this is, or null; takes the same time
 * whether the email is unknown, the password wrong or the account
 * deactivated, so response times do not tell which. Every failure is in the
 * activity record, from `origin`: as noticed by the app (who tried is not
 * known), filed under the account the email names (or NO_ACCOUNT), with the
 * email typed and why. Never the password.
 */
export async function checkPassword(email: string, password: string, origin: RequestOrigin | null): Promise<StaffUser | null> {
  const typed = email.trim().toLowerCase();
  const row = await db().user.findUnique({ where: { email: typed } });
  if (!row) {
    await spendVerifyTime(password);
    await recordSignInFailure(NO_ACCOUNT, typed, "unknown email", origin);
    return null;
  }
  if (!(await verifyPassword(row.passwordHash, password))) {
    await recordSignInFailure(row.id, typed, "wrong password", origin);
    return null;
  }
  if (row.deactivatedAt) {
    await recordSignInFailure(row.id, typed, "deactivated", origin);
    return null;
  }
  return toStaffUser(row);
}

/**
 * Records a sign-in that passed every step as the person's last, in the
 * activity record as theirs (with how, when more than a password), and dates
 * its session: now, or at the account's last cut-off if this instance's clock
 * is behind the one that made it, so a new session is never born void.
 */
export async function recordSignIn(user: StaffUser, factor: SessionFactor, origin: RequestOrigin | null): Promise<FactorSignIn> {
  const now = new Date();
  const row = await db().$transaction(async (tx) => {
    const updated = await tx.user.update({ where: { id: user.id }, data: { lastSignInAt: now } });
    const changes = factor === "password" ? {} : { after: { factor } };
    await recordActivity(tx, [accountRecord("sign_in.succeeded", user.id, changes, { actor: personActor(user), origin })], now);
    return updated;
  });
  const signedInAt = row.sessionsValidFrom && row.sessionsValidFrom > now ? row.sessionsValidFrom : now;
  return { ...toStaffUser(row), signedInAt, factor };
}

/** A wrong code at sign-in's second step, recorded as a failed sign-in of the account (never the code). */
export function recordWrongCode(user: StaffUser, origin: RequestOrigin | null): Promise<void> {
  return recordSignInFailure(user.id, user.email, "wrong code", origin);
}

/** Why a sign-in failed, for owners reading the record; the form says none of it. */
type SignInFailure =
  | "unknown email"
  | "wrong password"
  | "deactivated"
  | "wrong code"
  | "unknown passkey"
  | "passkey refused"
  | "single sign-on: email not verified"
  | "single sign-on: no account or invitation"
  | "single sign-on: account deactivated"
  | "staff sign in by single sign-on only";

/**
 * A failed sign-in writes nothing else, so its record is an insert of its own.
 * What was typed as the email is kept only when it is an email address: people
 * type their password in the wrong field, and sign-in does not bound its length.
 */
export function recordSignInFailure(subjectId: string, typedEmail: string, reason: SignInFailure, origin: RequestOrigin | null): Promise<void> {
  const email = emailSchema.safeParse(typedEmail).success ? typedEmail : null;
  return recordActivity(db(), [accountRecord("sign_in.failed", subjectId, { after: { email, reason } }, { actor: APP_ACTOR, origin })]);
}

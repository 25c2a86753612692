import { randomUUID } from "node:crypto";
import { accountRecord, invitationRecord } from "@/lib/activity/account-records";
import { type Attribution, personActor, type RequestOrigin } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { AccountDeactivatedError, AccountNotFoundError, EmailTakenError, LinkUnusableError } from "@/lib/auth/account-errors";
import { hashLinkSecret, isLinkSecret, newLinkSecret } from "@/lib/auth/accounts/link-secret";
import { requireStrongPassword } from "@/lib/auth/passwords/password-strength";
import { hashPassword } from "@/lib/auth/passwords/passwords";
import { toRole, toStaffUser, type StaffUser } from "@/lib/auth/accounts/users";
import { type AccountLink, db, type Prisma } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";
import type { InvitationAcceptance, NewInvitation } from "@/lib/validations/user";
import type { LinkPurpose, LinkState, Role } from "@/lib/validations/user-options";

// One-time links sent to a person (issue 21): an invitation to join the team,
// valid 7 days, and a password reset, valid 24 hours. Each is made of a secret
// (lib/auth/accounts/link-secret.ts) of which only the hash is stored; the secret is
// handed to the caller once, to send or show, and never logged. A new link of
// the same purpose for the same person withdraws the one still pending; an
// owner may withdraw an invitation. A link is used at most once: the use is a
// conditional write (still unused, not withdrawn, not expired) in the
// transaction that makes the account or sets the password, so that of two uses
// at once exactly one succeeds.
//
// Each change is recorded (issue 22) in its transaction: an invitation made or
// withdrawn (by the owner or operator in `by`), a reset link made, the account
// joined and the password reset (by the person whose account it is: whoever
// opens a link acts as its account, from the request's origin). A link's
// secret and hash are never part of a record.

export const LINK_LIFETIMES_MS: Record<LinkPurpose, number> = {
  invitation: 7 * 24 * 60 * 60 * 1000,
  password_reset: 24 * 60 * 60 * 1000,
};

/** A link as a page shows it: never its secret nor its hash. */
export type LinkSummary = {
  id: string;
  purpose: LinkPurpose;
  email: string;
  /** The role an invitation grants; null for a reset. */
  role: Role | null;
  /** A reset's account; null for an invitation not yet accepted. */
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
};

/** A new link: `secret` is all that opens it, shown once (lib/auth/accounts/account-link-url.ts makes the URL). */
export type NewLink = { secret: string; link: LinkSummary };

export type OpenedLink = { state: "valid"; link: LinkSummary } | { state: Exclude<LinkState, "valid"> };

function toSummary(row: AccountLink): LinkSummary {
  return {
    id: row.id,
    purpose: row.purpose === "invitation" ? "invitation" : "password_reset",
    email: row.email,
    role: row.role === null ? null : toRole(row.role),
    userId: row.userId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

/** Whether a link can be used at `now`, and if not why; used first, then withdrawn, then expired. */
function stateOf(row: AccountLink, now: Date): LinkState {
  if (row.usedAt) return "used";
  if (row.withdrawnAt) return "withdrawn";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "valid";
}

/** Where a pending link of this purpose is still usable. */
const pending = (now: Date) => ({ usedAt: null, withdrawnAt: null, expiresAt: { gt: now } });

/** The account that made a link, as the link stores it: the owner in `by`; none when an operator (or the app) made it. */
const makerId = (by: Attribution): string | null => (by.actor.kind === "person" ? by.actor.userId : null);

/**
 * Invites `email` to join as `role`, withdrawing the invitation still pending
 * for that email (the new one replaces it). Refused (EmailTakenError) when an
 * account has the email.
 */
export async function createInvitation(input: NewInvitation, by: Attribution): Promise<NewLink> {
  const secret = newLinkSecret();
  const link = await serializableTransaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw new EmailTakenError(input.email);
    const now = new Date();
    const replaced = await tx.accountLink.findMany({ where: { purpose: "invitation", email: input.email, ...pending(now) }, select: { id: true, role: true } });
    await tx.accountLink.updateMany({ where: { id: { in: replaced.map((link) => link.id) }, ...pending(now) }, data: { withdrawnAt: now } });
    const row = await insertLink(tx, { purpose: "invitation", secret, email: input.email, role: input.role, userId: null, createdById: makerId(by), now });
    await recordActivity(
      tx,
      [
        // Each replaced invitation's history ends with its withdrawal, and names the one that replaced it.
        ...replaced.map((link) =>
          invitationRecord("account.invitation_withdrawn", link.id, { before: { email: input.email, role: toRole(link.role ?? "staff") }, after: { replacedBy: row.id } }, by),
        ),
        invitationRecord("account.invited", row.id, { after: { email: input.email, role: input.role } }, by),
      ],
      now,
    );
    return row;
  });
  return { secret, link: toSummary(link) };
}

/**
 * A password reset for the account, withdrawing the one still pending for it.
 * Refused for a deactivated account (AccountDeactivatedError): reactivate it first.
 */
export async function createPasswordReset(input: { userId: string }, by: Attribution): Promise<NewLink> {
  const secret = newLinkSecret();
  const link = await serializableTransaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId } });
    if (!user) throw new AccountNotFoundError(input.userId);
    if (user.deactivatedAt) throw new AccountDeactivatedError(user.email);
    const now = new Date();
    await tx.accountLink.updateMany({ where: { purpose: "password_reset", userId: user.id, ...pending(now) }, data: { withdrawnAt: now } });
    const row = await insertLink(tx, { purpose: "password_reset", secret, email: user.email, role: null, userId: user.id, createdById: makerId(by), now });
    // The address the link goes to, which an owner reading the record may not otherwise know was this one.
    await recordActivity(tx, [accountRecord("password.reset_requested", user.id, { after: { email: user.email } }, by)], now);
    return row;
  });
  return { secret, link: toSummary(link) };
}

function insertLink(
  tx: Prisma.TransactionClient,
  input: { purpose: LinkPurpose; secret: string; email: string; role: Role | null; userId: string | null; createdById: string | null; now: Date },
): Promise<AccountLink> {
  return tx.accountLink.create({
    data: {
      id: randomUUID(),
      purpose: input.purpose,
      tokenHash: hashLinkSecret(input.secret),
      email: input.email,
      role: input.role,
      userId: input.userId,
      createdById: input.createdById,
      createdAt: input.now,
      expiresAt: new Date(input.now.getTime() + LINK_LIFETIMES_MS[input.purpose]),
    },
  });
}

/** What the link with this secret is now, for its page: valid (with what it is for), or why it cannot be used. */
export async function openLink(purpose: LinkPurpose, secret: string, now = new Date()): Promise<OpenedLink> {
  const row = await findLink(db(), purpose, secret);
  if (!row) return { state: "unknown" };
  const state = stateOf(row, now);
  return state === "valid" ? { state, link: toSummary(row) } : { state };
}

/** A secret of another purpose is unknown here: an invitation's secret resets no password. */
async function findLink(client: Prisma.TransactionClient, purpose: LinkPurpose, secret: string): Promise<AccountLink | null> {
  if (!isLinkSecret(secret)) return null;
  const row = await client.accountLink.findUnique({ where: { tokenHash: hashLinkSecret(secret) } });
  return row?.purpose === purpose ? row : null;
}

/**
 * Marks the link used, in the transaction that acts on it, if it still can be:
 * the condition and the write are one statement, so of two uses at once one
 * finds it used (PostgreSQL fails the other as a serialization failure, and
 * its second run finds it so). Throws LinkUnusableError, saying why, otherwise.
 */
async function useLink(tx: Prisma.TransactionClient, purpose: LinkPurpose, secret: string, now: Date): Promise<AccountLink> {
  const row = await findLink(tx, purpose, secret);
  if (!row) throw new LinkUnusableError(purpose, "unknown");
  const { count } = await tx.accountLink.updateMany({ where: { id: row.id, ...pending(now) }, data: { usedAt: now } });
  if (count === 0) {
    const state = stateOf(row, now);
    throw new LinkUnusableError(purpose, state === "valid" ? "used" : state);
  }
  return row;
}

/**
 * Single sign-on's use of an invitation (issue 34), where the provider's
 * verified email stands for the link's secret: the pending invitation for
 * `email`, if any, handed to `join`, which makes the account with its role
 * in `tx` and answers the account's id; the invitation is then used by it.
 * Null, and `join` not called, when none is pending.
 */
export async function joinByInvitationFor<T extends { id: string }>(tx: Prisma.TransactionClient, email: string, now: Date, join: (invitation: LinkSummary) => Promise<T>): Promise<T | null> {
  const row = await tx.accountLink.findFirst({ where: { purpose: "invitation", email, ...pending(now) }, orderBy: { createdAt: "desc" } });
  if (!row) return null;
  const joined = await join(toSummary(row));
  const { count } = await tx.accountLink.updateMany({ where: { id: row.id, ...pending(now) }, data: { usedAt: now, userId: joined.id } });
  // Used meanwhile by another transaction: this one must not stand.
  if (count === 0) throw new LinkUnusableError("invitation", "used");
  return joined;
}

/** Opens the link or throws why it cannot be used, before any costly work (the strength check, hashing). */
async function requireValid(purpose: LinkPurpose, secret: string): Promise<LinkSummary> {
  const opened = await openLink(purpose, secret);
  if (opened.state !== "valid") throw new LinkUnusableError(purpose, opened.state);
  return opened.link;
}

/**
 * Accepts an invitation: makes the account, with the invitation's email and
 * role, and uses the link, in one transaction, recorded as the new person's
 * from `origin`. Throws LinkUnusableError, WeakPasswordError, or
 * EmailTakenError (an account got the email meanwhile: the invitation stays unused).
 */
export async function acceptInvitation(secret: string, input: InvitationAcceptance, origin: RequestOrigin | null): Promise<StaffUser> {
  const invitation = await requireValid("invitation", secret);
  await requireStrongPassword(input.password, { email: invitation.email, name: input.name });
  const passwordHash = await hashPassword(input.password);
  return serializableTransaction(async (tx) => {
    const now = new Date();
    const link = await useLink(tx, "invitation", secret, now);
    if (await tx.user.findUnique({ where: { email: link.email }, select: { id: true } })) throw new EmailTakenError(link.email);
    const user = await tx.user.create({
      data: { id: randomUUID(), email: link.email, name: input.name, role: toRole(link.role ?? "staff"), passwordHash, createdAt: now },
    });
    await tx.accountLink.update({ where: { id: link.id }, data: { userId: user.id } });
    const joined = toStaffUser(user);
    await recordActivity(tx, [accountRecord("account.joined", joined.id, { after: { name: joined.name, email: joined.email, role: joined.role } }, { actor: personActor(joined), origin })], now);
    return joined;
  });
}

/**
 * Uses a password reset: sets the account's new password and voids every
 * session issued before now, in one transaction, recorded as the account's
 * from `origin`. Throws LinkUnusableError, WeakPasswordError, or AccountDeactivatedError.
 */
export async function resetPassword(secret: string, password: string, origin: RequestOrigin | null): Promise<StaffUser> {
  const reset = await requireValid("password_reset", secret);
  const account = reset.userId ? await db().user.findUnique({ where: { id: reset.userId } }) : null;
  if (!account) throw new LinkUnusableError("password_reset", "unknown");
  await requireStrongPassword(password, account);
  const passwordHash = await hashPassword(password);
  return serializableTransaction(async (tx) => {
    const now = new Date();
    const link = await useLink(tx, "password_reset", secret, now);
    const user = await tx.user.findUnique({ where: { id: link.userId ?? "" } });
    if (!user) throw new LinkUnusableError("password_reset", "unknown");
    if (user.deactivatedAt) throw new AccountDeactivatedError(user.email);
    const changed = toStaffUser(await tx.user.update({ where: { id: user.id }, data: { passwordHash, sessionsValidFrom: now } }));
    // The fact alone, no password nor hash; its time is the cut-off: every session signed in before it ended.
    await recordActivity(tx, [accountRecord("password.reset", changed.id, {}, { actor: personActor(changed), origin })], now);
    return changed;
  });
}

/** Withdraws a pending invitation; false when none is pending by this id (used, withdrawn, expired, or never made). */
export async function withdrawInvitation(id: string, by: Attribution): Promise<boolean> {
  return serializableTransaction(async (tx) => {
    const now = new Date();
    const invitation = await tx.accountLink.findFirst({ where: { id, purpose: "invitation", ...pending(now) }, select: { email: true, role: true } });
    if (!invitation) return false;
    // Still pending as it is withdrawn: the condition and the write are one statement.
    const { count } = await tx.accountLink.updateMany({ where: { id, purpose: "invitation", ...pending(now) }, data: { withdrawnAt: now } });
    if (count === 0) return false;
    const before = { email: invitation.email, role: toRole(invitation.role ?? "staff") };
    await recordActivity(tx, [invitationRecord("account.invitation_withdrawn", id, { before }, by)], now);
    return true;
  });
}

import { accountRecord } from "@/lib/activity/account-records";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { AccountNotFoundError, LastOwnerError } from "@/lib/auth/account-errors";
import { toRole, toStaffUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db, type Prisma, type User } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";
import type { AccountStatus, Role } from "@/lib/validations/user-options";

// The store's team (issue 21): who is on it, their roles, deactivation. Owners
// manage it in the staff app, operators with the user CLI; neither checks here
// who is asking (the callers do: requireOwner, the operator's shell).
//
// One rule holds whoever asks: the store always keeps an active owner, or
// nobody could manage the team again. It is decided in the transaction that
// makes the change, SERIALIZABLE, so that two owners demoting each other at
// once cannot both succeed: on PostgreSQL one of the two is failed and run
// again, and then finds itself the last owner.
//
// Each change is recorded (issue 22) in its transaction, by whoever `by`
// names; a change that changes nothing (the role it has, deactivated twice)
// and a refused one record nothing.

export type TeamMember = {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: Exclude<AccountStatus, "invited">;
  createdAt: Date;
  lastSignInAt: Date | null;
  deactivatedAt: Date | null;
  /** API tokens not revoked and not expired (a deactivated account's are refused while it is). */
  liveTokens: number;
  /** Whether it has a second factor (a confirmed authenticator app or a passkey), which an owner may clear (issue 24). */
  hasSecondFactor: boolean;
};

export type PendingInvitation = {
  id: string;
  email: string;
  role: Role;
  status: "invited";
  createdAt: Date;
  expiresAt: Date;
};

export type Team = { members: TeamMember[]; invitations: PendingInvitation[] };

/** Every account, oldest first, and the invitations still waiting to be accepted, newest first. */
export async function listTeam(now = new Date()): Promise<Team> {
  const [users, invitations] = await Promise.all([
    db().user.findMany({
      orderBy: { createdAt: "asc" },
      include: {
        _count: { select: { tokens: { where: { revokedAt: null, expiresAt: { gt: now } } }, passkeys: true } },
        totp: { select: { confirmedAt: true } },
      },
    }),
    db().accountLink.findMany({
      where: { purpose: "invitation", usedAt: null, withdrawnAt: null, expiresAt: { gt: now } },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  return {
    members: users.map((user) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      role: toRole(user.role),
      status: user.deactivatedAt ? "deactivated" : "active",
      createdAt: user.createdAt,
      lastSignInAt: user.lastSignInAt,
      deactivatedAt: user.deactivatedAt,
      liveTokens: user._count.tokens,
      hasSecondFactor: user._count.passkeys > 0 || user.totp?.confirmedAt != null,
    })),
    invitations: invitations.map((link) => ({
      id: link.id,
      email: link.email,
      role: toRole(link.role ?? "staff"),
      status: "invited",
      createdAt: link.createdAt,
      expiresAt: link.expiresAt,
    })),
  };
}

/** Makes the account an owner or staff; refuses to demote the last active owner (LastOwnerError). */
export async function changeRole(userId: string, role: Role, by: Attribution): Promise<StaffUser> {
  return serializableTransaction(async (tx) => {
    const user = await findOrThrow(tx, userId);
    if (user.role === role) return toStaffUser(user);
    if (role !== "owner") await requireAnotherActiveOwner(tx, user);
    const changed = toStaffUser(await tx.user.update({ where: { id: userId }, data: { role } }));
    await recordActivity(tx, [accountRecord("account.changed", userId, { before: { role: user.role }, after: { role } }, by)]);
    return changed;
  });
}

/**
 * Deactivates the account: it can no longer sign in, its sessions end and its
 * API tokens are refused until it is reactivated, and its pending password
 * resets are withdrawn. Refuses the last active owner (LastOwnerError).
 * Deactivating twice keeps the first time.
 */
export async function deactivateUser(userId: string, by: Attribution): Promise<StaffUser> {
  return serializableTransaction(async (tx) => {
    const user = await findOrThrow(tx, userId);
    if (user.deactivatedAt) return toStaffUser(user);
    await requireAnotherActiveOwner(tx, user);
    const now = new Date();
    await tx.accountLink.updateMany({ where: { userId, purpose: "password_reset", usedAt: null, withdrawnAt: null }, data: { withdrawnAt: now } });
    const changed = toStaffUser(await tx.user.update({ where: { id: userId }, data: { deactivatedAt: now, sessionsValidFrom: now } }));
    await recordActivity(tx, [accountRecord("account.deactivated", userId, STATUS_CHANGES.deactivated, by)], now);
    return changed;
  });
}

/**
 * Lets the account sign in again, and its unexpired, unrevoked API tokens work
 * again. Sessions from before the deactivation stay void: it signs in anew.
 */
export async function reactivateUser(userId: string, by: Attribution): Promise<StaffUser> {
  return serializableTransaction(async (tx) => {
    const user = await findOrThrow(tx, userId);
    if (!user.deactivatedAt) return toStaffUser(user);
    const changed = toStaffUser(await tx.user.update({ where: { id: userId }, data: { deactivatedAt: null } }));
    await recordActivity(tx, [accountRecord("account.reactivated", userId, STATUS_CHANGES.reactivated, by)]);
    return changed;
  });
}

/** The status the team page shows, before and after: the field these two change. */
const STATUS_CHANGES = {
  deactivated: { before: { status: "active" }, after: { status: "deactivated" } },
  reactivated: { before: { status: "deactivated" }, after: { status: "active" } },
} satisfies Record<string, { before: { status: AccountStatus }; after: { status: AccountStatus } }>;

async function findOrThrow(tx: Prisma.TransactionClient, userId: string): Promise<User> {
  const user = await tx.user.findUnique({ where: { id: userId } });
  if (!user) throw new AccountNotFoundError(userId);
  return user;
}

/** Throws LastOwnerError when `user` is an active owner and no other active owner exists. */
async function requireAnotherActiveOwner(tx: Prisma.TransactionClient, user: User): Promise<void> {
  if (user.role !== "owner" || user.deactivatedAt) return;
  const others = await tx.user.count({ where: { role: "owner", deactivatedAt: null, id: { not: user.id } } });
  if (others === 0) throw new LastOwnerError(user.email);
}

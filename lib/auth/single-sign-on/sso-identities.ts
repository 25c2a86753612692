import { accountRecord } from "@/lib/activity/account-records";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { db, type Prisma } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";

// The identities at the store's OpenID Connect provider linked to accounts
// (issue 34): shown on the Account page (one's own) and the Team page
// (everyone's, to owners), and unlinked there. An unlinked identity that
// signs in again is linked again by its verified email, as the first time:
// unlinking undoes a link, it does not ban; deactivation does that.

export type LinkedIdentity = { issuer: string; email: string; linkedAt: Date };

/** The identity linked to the account, or null. */
export async function linkedIdentity(userId: string): Promise<LinkedIdentity | null> {
  return db().ssoIdentity.findFirst({ where: { userId }, select: { issuer: true, email: true, linkedAt: true }, orderBy: { linkedAt: "asc" } });
}

/** Every account's linked identity, by account id. */
export async function linkedIdentities(): Promise<Map<string, LinkedIdentity>> {
  const rows = await db().ssoIdentity.findMany({ select: { userId: true, issuer: true, email: true, linkedAt: true }, orderBy: { linkedAt: "asc" } });
  return new Map(rows.map(({ userId, ...identity }) => [userId, identity]));
}

/** The person's own ways to sign in besides the company's: a password (an account made by single sign-on has none) and passkeys. */
export async function ownWaysIn(userId: string, client: Prisma.TransactionClient = db()): Promise<{ password: boolean; passkey: boolean }> {
  const user = await client.user.findUnique({ where: { id: userId }, select: { passwordHash: true, passkeys: { select: { id: true }, take: 1 } } });
  return { password: (user?.passwordHash ?? "") !== "", passkey: (user?.passkeys.length ?? 0) > 0 };
}

/** The person would be left with no way to sign in: no password and no passkey. */
export class NoOtherWayInError extends Error {
  override name = "NoOtherWayInError";

  constructor() {
    super("you would have no way left to sign in: set a password or add a passkey first, then unlink");
  }
}

/**
 * Unlinks the account's identity, recorded (account.sso_unlinked) in its
 * transaction; false when none is linked. `keepAWayIn`: the person unlinks
 * their own, and is refused (NoOtherWayInError) when they have neither a
 * password nor a passkey. An owner unlinking someone else's is not refused.
 */
export async function unlinkIdentity(userId: string, by: Attribution, { keepAWayIn }: { keepAWayIn: boolean }): Promise<boolean> {
  return serializableTransaction(async (tx) => {
    const identities = await tx.ssoIdentity.findMany({ where: { userId } });
    if (identities.length === 0) return false;
    if (keepAWayIn) {
      const ways = await ownWaysIn(userId, tx);
      if (!ways.password && !ways.passkey) throw new NoOtherWayInError();
    }
    const now = new Date();
    await tx.ssoIdentity.deleteMany({ where: { userId } });
    await recordActivity(
      tx,
      identities.map((identity) => accountRecord("account.sso_unlinked", userId, { before: { issuer: identity.issuer, email: identity.email } }, by)),
      now,
    );
    return true;
  });
}

import { accountRecord } from "@/lib/activity/account-records";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { AccountNotFoundError } from "@/lib/auth/account-errors";
import { toStaffUser, type StaffUser } from "@/lib/auth/accounts/users";
import { serializableTransaction } from "@/lib/db/serializable-transaction";

// Recovery (issue 24): a person who lost their phone or their passkeys has
// every second factor cleared, by an owner on the Team page or by the operator
// with `user reset-factors`, and signs in with their password again (then sets
// one up anew if the policy requires it). Clearing is a factor change, so it
// ends every session of the person, in its transaction, and is recorded there
// (account.factors_cleared) with what was cleared, by name: never a seed nor a code.

/** What was cleared: whether a confirmed authenticator app, and the passkeys' names. */
export type ClearedFactors = { authenticatorApp: boolean; passkeys: string[] };

/**
 * Removes the account's authenticator app (confirmed or being set up), its
 * recovery codes and its passkeys, and ends its sessions. `cleared` is null
 * when it had no second factor: then nothing is recorded and its sessions go on.
 */
export async function clearSecondFactors(userId: string, by: Attribution): Promise<{ user: StaffUser; cleared: ClearedFactors | null }> {
  return serializableTransaction(async (tx) => {
    const row = await tx.user.findUnique({ where: { id: userId }, include: { totp: { select: { confirmedAt: true } }, passkeys: { select: { name: true }, orderBy: { createdAt: "asc" } } } });
    if (!row) throw new AccountNotFoundError(userId);
    const cleared: ClearedFactors = { authenticatorApp: row.totp?.confirmedAt != null, passkeys: row.passkeys.map((passkey) => passkey.name) };
    await tx.totpFactor.deleteMany({ where: { userId } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.passkey.deleteMany({ where: { userId } });
    await tx.webAuthnChallenge.deleteMany({ where: { userId } });
    if (!cleared.authenticatorApp && cleared.passkeys.length === 0) return { user: toStaffUser(row), cleared: null };
    const now = new Date();
    const user = toStaffUser(await tx.user.update({ where: { id: userId }, data: { sessionsValidFrom: now } }));
    await recordActivity(tx, [accountRecord("account.factors_cleared", userId, { before: cleared }, by)], now);
    return { user, cleared };
  });
}

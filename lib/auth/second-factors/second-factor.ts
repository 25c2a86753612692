import { hashRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/second-factors/recovery-codes";
import { UnsealError } from "@/lib/auth/sealed-secret";
import { isTotpCode, matchTotpCode, openTotpSecret } from "@/lib/auth/second-factors/totp";
import { db } from "@/lib/db/client";
import { log } from "@/lib/server/log";

// Spending a code of a person's confirmed authenticator app or one of their
// recovery codes: at sign-in and before a change to the factor itself. Each
// use is a conditional update, so of two requests racing with one code (or
// two codes of one step) exactly one wins, on every instance, and a code's
// step, once accepted, refuses itself and every earlier step.

/** How a code was accepted: the session's `factor` claim. */
export type CodeFactor = "totp" | "recovery";

/** Whether the person has an authenticator app confirmed: then a password alone does not sign them in. */
export async function hasConfirmedTotp(userId: string): Promise<boolean> {
  const factor = await db().totpFactor.findUnique({ where: { userId }, select: { confirmedAt: true } });
  return factor?.confirmedAt != null;
}

/**
 * Spends `code`: a current code of the person's confirmed app (six digits),
 * or an unused recovery code. Answers which it was, or null when it is
 * neither (wrong, reused, of an earlier step, or no app confirmed). The
 * caller counts a null against the account's sign-in limit.
 */
export async function spendSecondFactorCode(userId: string, code: string, now = new Date()): Promise<CodeFactor | null> {
  const factor = await db().totpFactor.findUnique({ where: { userId } });
  if (!factor?.confirmedAt) return null;
  if (isTotpCode(code)) return (await spendTotpCode(userId, factor.secret, factor.lastUsedStep, code, now)) ? "totp" : null;
  const recovery = normalizeRecoveryCode(code);
  if (recovery === null) return null;
  const spent = await db().recoveryCode.updateMany({ where: { userId, codeHash: hashRecoveryCode(recovery), usedAt: null }, data: { usedAt: now } });
  return spent.count === 1 ? "recovery" : null;
}

/**
 * Accepts `code` for the sealed seed `sealedSecret` if its step is later than
 * the last accepted, and records its step. A seed sealed under another
 * NEXTAUTH_SECRET accepts no code (and says so in the log, without the seed):
 * its owner signs in with a recovery code, or an owner clears the factor.
 */
export async function spendTotpCode(userId: string, sealedSecret: string, lastUsedStep: bigint | null, code: string, now = new Date()): Promise<boolean> {
  let secret: string;
  try {
    secret = openTotpSecret(sealedSecret);
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    log.warn("an authenticator app's seed cannot be opened with this NEXTAUTH_SECRET: its codes are refused", { userId, reason: error.reason });
    return false;
  }
  const step = matchTotpCode(secret, code, lastUsedStep, now);
  if (step === null) return false;
  // Only if no other request accepted this step or a later one meanwhile.
  const spent = await db().totpFactor.updateMany({
    where: { userId, secret: sealedSecret, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
    data: { lastUsedStep: step },
  });
  return spent.count === 1;
}

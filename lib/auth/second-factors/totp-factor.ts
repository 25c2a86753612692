import { randomUUID } from "node:crypto";
import { accountRecord } from "@/lib/activity/account-records";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { TooManyAttemptsError, TotpStateError, WrongCodeError } from "@/lib/auth/account-errors";
import { requireCurrentPassword, type SessionsEnded } from "@/lib/auth/accounts/own-account";
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/second-factors/recovery-codes";
import { spendSecondFactorCode, spendTotpCode } from "@/lib/auth/second-factors/second-factor";
import { generateTotpSecret, sealTotpSecret } from "@/lib/auth/second-factors/totp";
import { toStaffUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db, type Prisma } from "@/lib/db/client";
import { blockedFor, countFailure } from "@/lib/http/rate-limit";

// A person's authenticator app, from the Account page: set up (a new seed,
// unconfirmed, signs no one in), confirmed by a first code (then it is on,
// with 10 new recovery codes), turned off with the password and a code, and
// new recovery codes in place of the old. Each change of the factor ends the
// person's other sessions (sessions_valid_from; the caller reissues its own,
// lib/auth/sessions/session-reissue.ts) and is recorded in its transaction, as the
// fact alone: never a seed, a code, or a recovery code.
//
// Wrong codes count against the account's sign-in limit, as wrong passwords
// do, so an open session is no way around sign-in's limit on guessing.

export type TotpStatus = { state: "off" | "pending" | "on"; confirmedAt: Date | null; recoveryCodesLeft: number };

export async function totpStatus(userId: string): Promise<TotpStatus> {
  const factor = await db().totpFactor.findUnique({ where: { userId } });
  if (!factor) return { state: "off", confirmedAt: null, recoveryCodesLeft: 0 };
  if (!factor.confirmedAt) return { state: "pending", confirmedAt: null, recoveryCodesLeft: 0 };
  const recoveryCodesLeft = await db().recoveryCode.count({ where: { userId, usedAt: null } });
  return { state: "on", confirmedAt: factor.confirmedAt, recoveryCodesLeft };
}

/**
 * A new seed for the person to scan, kept sealed and unconfirmed: it replaces
 * an earlier unconfirmed one (a setup started again), never a confirmed one.
 * Answers the seed, to show once.
 */
export async function startTotpSetup(user: StaffUser): Promise<string> {
  const secret = generateTotpSecret();
  const sealed = sealTotpSecret(secret);
  await db().$transaction(async (tx) => {
    const existing = await tx.totpFactor.findUnique({ where: { userId: user.id }, select: { confirmedAt: true } });
    if (existing?.confirmedAt) throw new TotpStateError("an authenticator app is already on: turn it off first");
    await tx.totpFactor.upsert({
      where: { userId: user.id },
      create: { userId: user.id, secret: sealed },
      update: { secret: sealed, lastUsedStep: null, createdAt: new Date() },
    });
  });
  return secret;
}

/** The app is on, and the recovery codes to show once. */
export type TotpConfirmed = SessionsEnded & { recoveryCodes: string[] };

/** Confirms the unconfirmed seed with a first code from the app: from now on, sign-in asks for a code. */
export async function confirmTotp(user: StaffUser, code: string, by: Attribution, now = new Date()): Promise<TotpConfirmed> {
  await requireUnblocked(user);
  const factor = await db().totpFactor.findUnique({ where: { userId: user.id } });
  if (!factor || factor.confirmedAt) throw new TotpStateError("no authenticator app is being set up: start again");
  if (!(await spendTotpCode(user.id, factor.secret, factor.lastUsedStep, code, now))) await refuseCode(user);
  const recoveryCodes = generateRecoveryCodes();
  return db().$transaction(async (tx) => {
    const confirmed = await tx.totpFactor.updateMany({ where: { userId: user.id, secret: factor.secret, confirmedAt: null }, data: { confirmedAt: now } });
    if (confirmed.count !== 1) throw new TotpStateError("the authenticator app's setup changed meanwhile: start again");
    await replaceRecoveryCodes(tx, user.id, recoveryCodes);
    const row = await tx.user.update({ where: { id: user.id }, data: { sessionsValidFrom: now } });
    await recordActivity(tx, [accountRecord("account.totp_enabled", user.id, {}, by)], now);
    return { user: toStaffUser(row), sessionsValidFrom: now, recoveryCodes };
  });
}

/** Turns the app off, and its recovery codes with it: needs the password and a code (or a recovery code). */
export async function disableTotp(user: StaffUser, password: string, code: string, by: Attribution, now = new Date()): Promise<SessionsEnded> {
  await requireCurrentPassword(user, password);
  await requireCode(user, code, now);
  return db().$transaction(async (tx) => {
    const removed = await tx.totpFactor.deleteMany({ where: { userId: user.id } });
    if (removed.count !== 1) throw new TotpStateError("no authenticator app is on");
    await tx.recoveryCode.deleteMany({ where: { userId: user.id } });
    const row = await tx.user.update({ where: { id: user.id }, data: { sessionsValidFrom: now } });
    await recordActivity(tx, [accountRecord("account.totp_disabled", user.id, {}, by)], now);
    return { user: toStaffUser(row), sessionsValidFrom: now };
  });
}

/** New recovery codes in place of every old one, used or not: needs a code (or a recovery code). */
export async function renewRecoveryCodes(user: StaffUser, code: string, by: Attribution, now = new Date()): Promise<TotpConfirmed> {
  await requireCode(user, code, now);
  const recoveryCodes = generateRecoveryCodes();
  return db().$transaction(async (tx) => {
    await replaceRecoveryCodes(tx, user.id, recoveryCodes);
    const row = await tx.user.update({ where: { id: user.id }, data: { sessionsValidFrom: now } });
    await recordActivity(tx, [accountRecord("account.recovery_codes_renewed", user.id, {}, by)], now);
    return { user: toStaffUser(row), sessionsValidFrom: now, recoveryCodes };
  });
}

async function replaceRecoveryCodes(tx: Prisma.TransactionClient, userId: string, codes: readonly string[]): Promise<void> {
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({
    data: codes.map((code) => ({ id: randomUUID(), userId, codeHash: hashRecoveryCode(normalizeRecoveryCode(code) ?? code) })),
  });
}

async function requireUnblocked(user: StaffUser): Promise<void> {
  const wait = await blockedFor("signInAccount", user.email);
  if (wait !== undefined) throw new TooManyAttemptsError(wait, "codes");
}

async function requireCode(user: StaffUser, code: string, now: Date): Promise<void> {
  await requireUnblocked(user);
  if ((await spendSecondFactorCode(user.id, code, now)) === null) await refuseCode(user);
}

async function refuseCode(user: StaffUser): Promise<never> {
  await countFailure("signInAccount", user.email);
  throw new WrongCodeError();
}

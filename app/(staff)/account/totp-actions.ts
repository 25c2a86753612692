"use server";

import { revalidatePath } from "next/cache";
import { renderSVG } from "uqr";
import type { z } from "zod";
import { actionAttribution } from "@/lib/activity/action-attribution";
import type { Attribution } from "@/lib/activity/actor";
import { TooManyAttemptsError, TotpStateError, WrongCodeError, WrongPasswordError } from "@/lib/auth/account-errors";
import type { StaffUser } from "@/lib/auth/accounts/users";
import type { SessionFactor } from "@/lib/auth/session-factor";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { reissueSession } from "@/lib/auth/sessions/session-reissue";
import { totpUri } from "@/lib/auth/second-factors/totp";
import { confirmTotp, disableTotp, renewRecoveryCodes, startTotpSetup, type TotpConfirmed } from "@/lib/auth/second-factors/totp-factor";
import { fieldErrors, type FormRefusal } from "@/lib/validations/field-errors";
import { totpConfirmationFieldSchema, totpConfirmationSchema, totpDisableFieldSchema, totpDisableSchema } from "@/lib/validations/user";

// The authenticator app on the Account page (issue 24). Each action checks the
// session itself and changes only the signed-in person's own factor. A change
// of the factor ends every other session (lib/auth/second-factors/totp-factor.ts); this
// browser's goes on with a new cookie that says how it is signed in now. The
// seed and the recovery codes are answered to the person's own browser once,
// and never logged.

type CodeField = z.infer<typeof totpConfirmationFieldSchema>;

export type TotpSetupStarted = { secret: string; qrCode: string };
export type RecoveryCodesResult = { recoveryCodes: string[] } | FormRefusal<CodeField>;
export type TotpDisableResult = { disabled: true } | FormRefusal<z.infer<typeof totpDisableFieldSchema>>;

/** A new seed to scan: the QR code (an SVG data URL of the otpauth:// URI) and the seed as text. */
export async function startTotp(): Promise<TotpSetupStarted> {
  const user = await requireStaff("/account");
  const secret = await startTotpSetup(user);
  const svg = renderSVG(totpUri(user.email, secret), { border: 2 });
  return { secret, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** The first code confirms the app: it is on, and the recovery codes are shown once. */
export async function confirmTotpCode(values: unknown): Promise<RecoveryCodesResult> {
  // This session has just shown a code of the app.
  return withCode(values, confirmTotp, "totp");
}

/** Turns the app off, given the password and a code (or a recovery code). */
export async function turnOffTotp(values: unknown): Promise<TotpDisableResult> {
  const user = await requireStaff("/account");
  const parsed = totpDisableSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error, totpDisableFieldSchema) };
  try {
    const { user: changed, sessionsValidFrom } = await disableTotp(user, parsed.data.currentPassword, parsed.data.code, await actionAttribution(user));
    // It keeps how it signed in: turning the app off took its code, and a passkey the person still has
    // must not send them to sign in again.
    await reissueSession(changed, sessionsValidFrom);
    revalidatePath("/account");
    return { disabled: true };
  } catch (error) {
    if (error instanceof WrongPasswordError) return { errors: [{ field: "currentPassword", message: error.message }] };
    return codeRefusal(error);
  }
}

/** New recovery codes in place of the old ones, given a code (or a recovery code). */
export async function renewCodes(values: unknown): Promise<RecoveryCodesResult> {
  return withCode(values, renewRecoveryCodes);
}

/**
 * Checks the session and the form's code, then `act`s with the code: the new
 * recovery codes, for the person's browser once. This session goes on with a
 * new cookie, signed in as before or, given `factor`, with it.
 */
async function withCode(values: unknown, act: (user: StaffUser, code: string, by: Attribution) => Promise<TotpConfirmed>, factor?: SessionFactor): Promise<RecoveryCodesResult> {
  const user = await requireStaff("/account");
  const parsed = totpConfirmationSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error, totpConfirmationFieldSchema) };
  try {
    const confirmed = await act(user, parsed.data.code, await actionAttribution(user));
    await reissueSession(confirmed.user, confirmed.sessionsValidFrom, factor);
    return { recoveryCodes: confirmed.recoveryCodes };
  } catch (error) {
    return codeRefusal(error);
  }
}

function codeRefusal(error: unknown): FormRefusal<CodeField> {
  if (error instanceof WrongCodeError || error instanceof TooManyAttemptsError) return { errors: [{ field: "code", message: error.message }] };
  if (error instanceof TotpStateError) return { errors: [{ field: null, message: error.message }] };
  throw error;
}

"use server";

import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { actionAttribution } from "@/lib/activity/action-attribution";
import { EmailTakenError, TooManyAttemptsError, WeakPasswordError, WrongPasswordError } from "@/lib/auth/account-errors";
import { changePassword, endOtherSessions, updateProfile } from "@/lib/auth/accounts/own-account";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { reissueSession } from "@/lib/auth/sessions/session-reissue";
import { NoOtherWayInError, unlinkIdentity } from "@/lib/auth/single-sign-on/sso-identities";
import { fieldErrors, type FormRefusal } from "@/lib/validations/field-errors";
import { sentence } from "@/lib/validations/sentence";
import { passwordChangeFieldSchema, passwordChangeSchema, profileChangeFieldSchema, profileChangeSchema } from "@/lib/validations/user";

// Server actions are public endpoints: each one checks the session itself, and
// changes only the signed-in person's own account. Next refuses a server
// action posted from another site (its Origin check; lib/server/server-action-origin.ts).

export type ProfileResult = { saved: { name: string; email: string } } | FormRefusal<z.infer<typeof profileChangeFieldSchema>>;
export type PasswordResult = { changed: true } | FormRefusal<z.infer<typeof passwordChangeFieldSchema>>;

export async function saveProfile(values: unknown): Promise<ProfileResult> {
  const user = await requireStaff("/account");
  const parsed = profileChangeSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error, profileChangeFieldSchema) };
  try {
    const saved = await updateProfile(user, parsed.data, await actionAttribution(user));
    revalidatePath("/", "layout");
    return { saved: { name: saved.name, email: saved.email } };
  } catch (error) {
    if (error instanceof EmailTakenError) return { errors: [{ field: "email", message: error.message }] };
    if (error instanceof WrongPasswordError || error instanceof TooManyAttemptsError) return { errors: [{ field: "currentPassword", message: error.message }] };
    throw error;
  }
}

/** A new password ends every other session; this browser's goes on with a new cookie. */
export async function savePassword(values: unknown): Promise<PasswordResult> {
  const user = await requireStaff("/account");
  const parsed = passwordChangeSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error, passwordChangeFieldSchema) };
  try {
    const { user: changed, sessionsValidFrom } = await changePassword(user, parsed.data.currentPassword, parsed.data.newPassword, await actionAttribution(user));
    await reissueSession(changed, sessionsValidFrom);
    return { changed: true };
  } catch (error) {
    if (error instanceof WrongPasswordError || error instanceof TooManyAttemptsError) return { errors: [{ field: "currentPassword", message: error.message }] };
    if (error instanceof WeakPasswordError) return { errors: [{ field: "newPassword", message: error.message }] };
    throw error;
  }
}

/** Ends every session of the signed-in person but this one. */
export async function signOutEverywhereElse(): Promise<{ done: true }> {
  const user = await requireStaff("/account");
  const { user: current, sessionsValidFrom } = await endOtherSessions(user);
  await reissueSession(current, sessionsValidFrom);
  return { done: true };
}

export type UnlinkResult = { unlinked: true } | { error: string };

/** Unlinks the person's own single sign-on identity (issue 34), while a password or a passkey is left to sign in with. */
export async function unlinkOwnIdentity(): Promise<UnlinkResult> {
  const user = await requireStaff("/account");
  try {
    if (!(await unlinkIdentity(user.id, await actionAttribution(user), { keepAWayIn: true }))) return { error: "No company account is linked to yours." };
    revalidatePath("/account");
    return { unlinked: true };
  } catch (error) {
    if (error instanceof NoOtherWayInError) return { error: sentence(error.message) };
    throw error;
  }
}

"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { actionAttribution } from "@/lib/activity/action-attribution";
import { PasskeyNotFoundError, PasskeyRefusedError } from "@/lib/auth/second-factors/passkey-errors";
import { relyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { addPasskey, beginPasskeyRegistration, type PasskeyRegistration, removePasskey } from "@/lib/auth/second-factors/passkeys";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { reissueSession } from "@/lib/auth/sessions/session-reissue";
import { newPasskeySchema, removePasskeySchema } from "@/lib/validations/passkey";
import { sentence } from "@/lib/validations/sentence";

// The Account page's passkeys (issue 24). Each action checks the session
// itself and touches only the signed-in person's own passkeys. Adding or
// removing one ends the person's other sessions; this browser's goes on with a
// new cookie.

export type PasskeyActionResult = { done: true } | { error: string };

const NO_ADDRESS = "The app cannot tell its own address for passkeys: ask the store's operator to set NEXTAUTH_URL.";

/** The first step of adding a passkey: the options for the browser, with a challenge kept for five minutes. */
export async function startAddingPasskey(): Promise<PasskeyRegistration | { error: string }> {
  const user = await requireStaff("/account");
  const rp = relyingParty(await headers());
  if (!rp) return { error: NO_ADDRESS };
  return beginPasskeyRegistration(user, rp);
}

/** The second step: the browser's new credential, verified and kept under its name. */
export async function finishAddingPasskey(values: unknown): Promise<PasskeyActionResult> {
  const user = await requireStaff("/account");
  const parsed = newPasskeySchema.safeParse(values);
  if (!parsed.success) return { error: "The browser's answer was not a passkey. Try again." };
  const rp = relyingParty(await headers());
  if (!rp) return { error: NO_ADDRESS };
  try {
    const { user: changed, sessionsValidFrom } = await addPasskey(user, parsed.data, rp, await actionAttribution(user));
    // The browser just proved the passkey, with user verification: this session has passed it, and the
    // policy (lib/auth/second-factors/second-factor-policy.ts) must not send its maker to sign in again with it.
    await reissueSession(changed, sessionsValidFrom, "passkey");
    revalidatePath("/account");
    return { done: true };
  } catch (error) {
    if (error instanceof PasskeyRefusedError) return { error: sentence(error.message) };
    throw error;
  }
}

export async function deletePasskey(values: unknown): Promise<PasskeyActionResult> {
  const user = await requireStaff("/account");
  const parsed = removePasskeySchema.safeParse(values);
  if (!parsed.success) return { error: sentence(new PasskeyNotFoundError().message) };
  try {
    const { user: changed, sessionsValidFrom } = await removePasskey(user, parsed.data.id, await actionAttribution(user));
    await reissueSession(changed, sessionsValidFrom);
    revalidatePath("/account");
    return { done: true };
  } catch (error) {
    if (error instanceof PasskeyNotFoundError) return { error: sentence(error.message) };
    throw error;
  }
}

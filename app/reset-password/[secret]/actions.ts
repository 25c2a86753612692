"use server";

import { actionOrigin } from "@/lib/activity/action-attribution";
import { AccountDeactivatedError, LinkUnusableError, WeakPasswordError } from "@/lib/auth/account-errors";
import { resetPassword } from "@/lib/auth/accounts/account-links";
import { TooManyLinkAttemptsError, tryLinkFrom } from "@/lib/auth/accounts/link-attempts";
import { requestClientAddress } from "@/lib/server/request-client-address";
import { sentence } from "@/lib/validations/sentence";
import { newPasswordSchema } from "@/lib/validations/user";

/**
 * Uses the password reset whose secret is `secret` (the page's URL already
 * holds it): sets the new password, ending the account's other sessions, or
 * returns what went wrong as a sentence. On success, the account's email; the
 * browser signs in with it and the new password. The reset is recorded as
 * the account's own (whoever holds its link acts as it), from this request.
 */
export async function chooseNewPassword(secret: string, values: unknown): Promise<string | { email: string }> {
  const parsed = newPasswordSchema.safeParse(values);
  if (!parsed.success) return parsed.error.issues.map((issue) => sentence(issue.message)).join(" ");
  try {
    const origin = await actionOrigin();
    const user = await tryLinkFrom(await requestClientAddress(), () => resetPassword(String(secret), parsed.data.password, origin));
    return { email: user.email };
  } catch (error) {
    // Its own message speaks to an owner ("reactivate it first").
    if (error instanceof AccountDeactivatedError) return "This account is deactivated: ask an owner of this store to reactivate it.";
    // Each says why in words written to be shown (lib/auth/account-errors.ts, lib/auth/accounts/link-attempts.ts).
    if (error instanceof LinkUnusableError || error instanceof WeakPasswordError || error instanceof TooManyLinkAttemptsError) return sentence(error.message);
    throw error;
  }
}

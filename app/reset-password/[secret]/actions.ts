"use server";

import { AccountDeactivatedError } from "@/lib/auth/account-errors";
import { resetPassword } from "@/lib/auth/accounts/account-links";
import { actOnLink, type LinkActionAnswer } from "@/lib/auth/accounts/link-action";
import { newPasswordSchema } from "@/lib/validations/user";

/**
 * Uses the password reset whose secret is `secret` (the page's URL already
 * holds it): sets the new password, ending the account's other sessions, or
 * returns what went wrong as a sentence. On success, the account's email
 * (actOnLink). The reset is recorded as the account's own (whoever holds its
 * link acts as it), from this request.
 */
export async function chooseNewPassword(secret: string, values: unknown): Promise<LinkActionAnswer> {
  return actOnLink(secret, values, newPasswordSchema, (secret, { password }, origin) => resetPassword(secret, password, origin), (error) =>
    // Its own message speaks to an owner ("reactivate it first").
    error instanceof AccountDeactivatedError ? "This account is deactivated: ask an owner of this store to reactivate it." : undefined,
  );
}

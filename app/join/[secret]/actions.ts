"use server";

import { EmailTakenError, LinkUnusableError } from "@/lib/auth/account-errors";
import { acceptInvitation } from "@/lib/auth/accounts/account-links";
import { actOnLink, type LinkActionAnswer } from "@/lib/auth/accounts/link-action";
import { invitationAcceptanceSchema } from "@/lib/validations/user";

/**
 * Accepts the invitation whose secret is `secret` (the page's URL already
 * holds it): makes the account, or returns what went wrong as a sentence. On
 * success, the email to sign in with (actOnLink). The account is recorded as
 * joined by the new person, from this request.
 */
export async function joinTeam(secret: string, values: unknown): Promise<LinkActionAnswer> {
  return actOnLink(secret, values, invitationAcceptanceSchema, acceptInvitation, (error) => {
    if (error instanceof LinkUnusableError && error.state === "used") return "This invitation has already been used: sign in instead.";
    if (error instanceof EmailTakenError) return "An account already has this invitation's email: sign in instead.";
    return undefined;
  });
}

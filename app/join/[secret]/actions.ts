"use server";

import { actionOrigin } from "@/lib/activity/action-attribution";
import { EmailTakenError, LinkUnusableError, WeakPasswordError } from "@/lib/auth/account-errors";
import { acceptInvitation } from "@/lib/auth/accounts/account-links";
import { TooManyLinkAttemptsError, tryLinkFrom } from "@/lib/auth/accounts/link-attempts";
import { requestClientAddress } from "@/lib/server/request-client-address";
import { sentence } from "@/lib/validations/sentence";
import { invitationAcceptanceSchema } from "@/lib/validations/user";

/**
 * Accepts the invitation whose secret is `secret` (the page's URL already
 * holds it): makes the account, or returns what went wrong as a sentence. On
 * success, the email to sign in with; the browser signs in with it and the
 * password typed, so no session is made here that the form did not ask for.
 * The account is recorded as joined by the new person, from this request.
 */
export async function joinTeam(secret: string, values: unknown): Promise<string | { email: string }> {
  const parsed = invitationAcceptanceSchema.safeParse(values);
  if (!parsed.success) return parsed.error.issues.map((issue) => sentence(issue.message)).join(" ");
  try {
    const origin = await actionOrigin();
    const user = await tryLinkFrom(await requestClientAddress(), () => acceptInvitation(String(secret), parsed.data, origin));
    return { email: user.email };
  } catch (error) {
    if (error instanceof LinkUnusableError && error.state === "used") return "This invitation has already been used: sign in instead.";
    if (error instanceof EmailTakenError) return "An account already has this invitation's email: sign in instead.";
    // Each says why in words written to be shown (lib/auth/account-errors.ts, lib/auth/accounts/link-attempts.ts).
    if (error instanceof LinkUnusableError || error instanceof WeakPasswordError || error instanceof TooManyLinkAttemptsError) return sentence(error.message);
    throw error;
  }
}

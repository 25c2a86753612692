"use client";

import type { LinkShown } from "@/app/(staff)/team/actions";
import { SecretOnce } from "@/components/shared/secret-once";
import type { LinkPurpose } from "@/lib/validations/user-options";

// As lib/auth/accounts/account-links.ts makes them: an invitation works for 7 days, a reset for 24 hours.
const LIFETIMES: Record<LinkPurpose, string> = { invitation: "7 days", password_reset: "24 hours" };
const NAMES: Record<LinkPurpose, string> = { invitation: "Invitation link", password_reset: "Password reset link" };

/**
 * A one-time link (an invitation, a password reset), shown the one time it
 * exists in the clear, with a copy button, and whether it was also emailed.
 * The link is all that opens it: whoever has it can join or set the password.
 */
export function AccountLinkOnce({ id, shown }: { id: string; shown: LinkShown }) {
  return (
    <SecretOnce id={id} label={`${NAMES[shown.purpose]} for ${shown.email}`} secret={shown.url} what="link">
      <p>
        <strong>Copy the link now:</strong> it is shown only this once. {mailSentence(shown)}
      </p>
    </SecretOnce>
  );
}

function mailSentence({ purpose, email, mail }: LinkShown): string {
  if (mail === null) return `Send this link to ${email}; it works once, for ${LIFETIMES[purpose]}.`;
  if (mail.sent) return `We also emailed it to ${email}.`;
  return `The email could not be sent: ${mail.reason}. Send the link yourself.`;
}

import type { LinkSummary } from "@/lib/auth/accounts/account-links";
import { type MailOutcome, mailConfigured, sendMail } from "@/lib/mail/mailer";

// The emails that carry one-time links: an invitation and a password reset.
// Plain text, so that what a person reads is exactly the link the app made.

const DAYS: Record<LinkSummary["purpose"], string> = { invitation: "7 days", password_reset: "24 hours" };

/** Emails an invitation to its address; null when no mail server is configured. */
export async function mailInvitation(link: LinkSummary, url: string, invitedBy: string | null): Promise<MailOutcome | null> {
  if (!mailConfigured()) return null;
  const by = invitedBy ? `${invitedBy} invites you` : "You are invited";
  return sendMail("invitation", {
    to: link.email,
    subject: "Your invitation to Plant Store",
    text: [
      `${by} to join the store's team on Plant Store as ${link.role === "owner" ? "an owner" : "staff"}.`,
      "",
      `Open this link within ${DAYS.invitation} to choose your name and password (it works once):`,
      url,
      "",
      "If you did not expect this invitation, ignore this email.",
    ].join("\n"),
  });
}

/** Emails a password reset link to the account's address; null when no mail server is configured. */
export async function mailPasswordReset(link: LinkSummary, url: string): Promise<MailOutcome | null> {
  if (!mailConfigured()) return null;
  return sendMail("password_reset", {
    to: link.email,
    subject: "Reset your Plant Store password",
    text: [
      "Someone asked to reset the password of your Plant Store account.",
      "",
      `Open this link within ${DAYS.password_reset} to choose a new password (it works once):`,
      url,
      "",
      "Choosing a new password signs you out everywhere else. If you did not ask, ignore this email: your password stays as it is.",
    ].join("\n"),
  });
}

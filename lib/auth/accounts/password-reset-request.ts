import { APP_ACTOR, type RequestOrigin } from "@/lib/activity/actor";
import { createPasswordReset } from "@/lib/auth/accounts/account-links";
import { accountLinkUrl } from "@/lib/auth/accounts/account-link-url";
import { mailPasswordReset } from "@/lib/auth/accounts/account-mail";
import { findUser, findUserIdByEmail } from "@/lib/auth/accounts/users";
import { blockedFor, countFailure } from "@/lib/http/rate-limit";
import { describeError, log } from "@/lib/server/log";

// "Forgot your password?" (issue 21): anyone may ask for a reset link to be
// emailed to an address, when the app has a mail server. The answer is the
// same words whether or not an account has the address, and the work that
// would tell (finding the account, making the link, sending the email) runs
// after the answer has gone (the server action schedules requestPasswordReset
// with after()), so that neither the words nor the time tell which emails have
// accounts (OWASP Forgot Password Cheat Sheet). Asking is limited per client
// address and per email typed, so that nobody floods a mailbox or the mail
// server through the form.

/** The one answer to every request admitted, whether or not an account has the email. */
export const RESET_REQUESTED = "If an account has that email, we have sent it a link to choose a new password. The link works once, for 24 hours.";

/**
 * Counts one request from `address` for `email` (as typed, lower-cased,
 * whether or not an account has it) against both allowances, unless either is
 * spent: then the seconds to wait, and nothing is counted.
 */
export async function spendResetRequest(address: string, email: string): Promise<number | undefined> {
  const account = email.trim().toLowerCase();
  const waits = await Promise.all([blockedFor("resetRequestAddress", address), blockedFor("resetRequestAccount", account)]);
  const wait = Math.max(0, ...waits.filter((seconds) => seconds !== undefined));
  if (wait > 0) return wait;
  await Promise.all([countFailure("resetRequestAddress", address), countFailure("resetRequestAccount", account)]);
  return undefined;
}

/**
 * Emails a reset link to the active account with this email (withdrawing the
 * one it may still hold); for an email no account has, or a deactivated
 * account, does nothing. Never throws: it runs after the answer, where no one
 * would hear, so a failure is logged (never the email's link). The link is
 * recorded as made by the app on a request from `origin`: who asked is not
 * known (anyone may type an email).
 */
export async function requestPasswordReset(email: string, origin: RequestOrigin | null): Promise<void> {
  try {
    const userId = await findUserIdByEmail(email);
    // findUser: only an active account; a deactivated one is reactivated by an owner first.
    const user = userId ? await findUser(userId) : null;
    if (!user) return;
    const { secret, link } = await createPasswordReset({ userId: user.id }, { actor: APP_ACTOR, origin });
    // mailPasswordReset logs a refusal itself; null only when SMTP_URL went away meanwhile.
    await mailPasswordReset(link, accountLinkUrl("password_reset", secret));
  } catch (error) {
    log.warn("a password reset asked for could not be made", describeError(error));
  }
}

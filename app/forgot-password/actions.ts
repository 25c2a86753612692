"use server";

import { after } from "next/server";
import { actionOrigin } from "@/lib/activity/action-attribution";
import { RESET_REQUESTED, requestPasswordReset, spendResetRequest } from "@/lib/auth/accounts/password-reset-request";
import { mailConfigured } from "@/lib/mail/mailer";
import { requestClientAddress } from "@/lib/server/request-client-address";
import { tooManyResetRequests } from "@/lib/validations/rate-limit-sentences";
import { sentence } from "@/lib/validations/sentence";
import { passwordResetRequestSchema } from "@/lib/validations/user";

export type ResetRequestAnswer = { sent: string } | { problem: string };

/**
 * Asks for a reset link to be emailed. Admitted, the answer is the same words
 * whether or not an account has the email, and it goes before the account is
 * even looked up: the link is made and sent after the response (after()), so
 * its timing does not tell either (lib/auth/accounts/password-reset-request.ts).
 */
export async function askForPasswordReset(values: unknown): Promise<ResetRequestAnswer> {
  // The page is gone without a mail server; a call from an old page gets the page's own sentence.
  if (!mailConfigured()) return { problem: "Forgot your password? Ask an owner of this store for a reset link." };
  const parsed = passwordResetRequestSchema.safeParse(values);
  if (!parsed.success) return { problem: parsed.error.issues.map((issue) => sentence(issue.message, "Email")).join(" ") };
  const { email } = parsed.data;
  const wait = await spendResetRequest(await requestClientAddress(), email);
  if (wait !== undefined) return { problem: tooManyResetRequests(wait) };
  // Read now, while this action's request is at hand.
  const origin = await actionOrigin();
  after(() => requestPasswordReset(email, origin));
  return { sent: RESET_REQUESTED };
}

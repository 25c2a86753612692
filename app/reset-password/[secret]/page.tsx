import type { Metadata } from "next";
import { NewPasswordForm } from "@/components/sign-in/new-password-form";
import { UnusableLink } from "@/components/sign-in/unusable-link";
import { openLinkFrom } from "@/lib/auth/accounts/link-attempts";
import { mailConfigured } from "@/lib/mail/mailer";
import { requestClientAddress } from "@/lib/server/request-client-address";

export const dynamic = "force-dynamic";
// The URL holds the link's secret: no other site is told it (Referer), and no search engine keeps it.
export const metadata: Metadata = { title: "Choose a new password · Plant Store", referrer: "no-referrer", robots: { index: false, follow: false } };

type Params = Promise<{ secret: string }>;

/** Where a password reset link leads (issue 21): the account's new password, then signed in. */
export default async function ResetPasswordPage({ params }: { params: Params }) {
  const { secret } = await params;
  const opened = await openLinkFrom(await requestClientAddress(), "password_reset", secret);
  if (opened.state !== "valid") return <UnusableLink purpose="password_reset" refusal={opened} resetByEmail={mailConfigured()} />;
  const { email } = opened.link;
  return (
    <main id="main" className="narrow">
      <h1>Choose a new password</h1>
      <p>
        For the account <strong>{email}</strong>. Choosing a new password signs this account out everywhere else.
      </p>
      <NewPasswordForm secret={secret} email={email} />
    </main>
  );
}

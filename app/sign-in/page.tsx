import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PasskeySignIn } from "@/components/sign-in/passkey-sign-in";
import { SignInForm } from "@/components/sign-in/sign-in-form";
import { SingleSignOnButton } from "@/components/sign-in/single-sign-on-button";
import { ssoErrorMessage } from "@/lib/auth/single-sign-on/sso-messages";
import { ssoStatus } from "@/lib/auth/single-sign-on/sso-status";
import { safeCallbackPath } from "@/lib/auth/sessions/callback-url";
import { currentStaffSession } from "@/lib/auth/sessions/require-staff";
import { hasAnyUser } from "@/lib/auth/accounts/users";
import { mailConfigured } from "@/lib/mail/mailer";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Plant Store" };

type SearchParams = Promise<{ callbackUrl?: string | string[]; setup?: string; again?: string; error?: string | string[]; code?: string | string[] }>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const { callbackUrl, setup, again, error, code } = await searchParams;
  const back = safeCallbackPath(callbackUrl);
  if (!(await hasAnyUser())) redirect("/setup");
  // A session that did not pass the person's second factor stays here, to sign in again with it (issue 24).
  const session = await currentStaffSession();
  if (session && session.standing !== "sign_in_again") redirect(back);
  // Single sign-on (issue 34): its button while the provider answers, a notice while it does not,
  // why it brought the person back without a session, and the code step it may lead to.
  const sso = await ssoStatus();
  const ssoError = ssoErrorMessage(typeof error === "string" ? error : undefined);
  const codeTicket = typeof code === "string" && code !== "" ? code : undefined;
  return (
    <main id="main" className="narrow">
      <h1>Sign in to Plant Store</h1>
      {setup === "done" && (
        <p className="confirmation" role="status">
          Your owner account is ready. Sign in with it.
        </p>
      )}
      {again === "second-factor" && (
        <p className="confirmation" role="status">
          Your account has a second factor: sign in again with it to go on.
        </p>
      )}
      {ssoError && (
        <p className="form-error" role="alert">
          {ssoError}
        </p>
      )}
      {sso.state === "available" && <SingleSignOnButton name={sso.name} callbackPath={back} />}
      {sso.state === "unavailable" && (
        <p className="confirmation" role="status">
          The company sign-in is unavailable right now. Sign in with your password or a passkey.
        </p>
      )}
      <SignInForm callbackPath={back} codeTicket={codeTicket} />
      <PasskeySignIn callbackPath={back} />
      {/* People ask for a reset link themselves only where the app can email it. */}
      {mailConfigured() ? (
        <p>
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      ) : (
        <p>Forgot your password? Ask an owner of this store for a reset link.</p>
      )}
    </main>
  );
}

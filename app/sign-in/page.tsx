import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PasskeySignIn } from "@/components/sign-in/passkey-sign-in";
import { SignInForm } from "@/components/sign-in/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/sessions/callback-url";
import { currentStaffSession } from "@/lib/auth/sessions/require-staff";
import { hasAnyUser } from "@/lib/auth/accounts/users";
import { mailConfigured } from "@/lib/mail/mailer";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Plant Store" };

type SearchParams = Promise<{ callbackUrl?: string | string[]; setup?: string; again?: string }>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const { callbackUrl, setup, again } = await searchParams;
  const back = safeCallbackPath(callbackUrl);
  if (!(await hasAnyUser())) redirect("/setup");
  // A session that did not pass the person's second factor stays here, to sign in again with it (issue 24).
  const session = await currentStaffSession();
  if (session && session.standing !== "sign_in_again") redirect(back);
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
      <SignInForm callbackPath={back} />
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

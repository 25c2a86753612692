import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PasskeySignIn } from "@/components/passkey-sign-in";
import { SignInForm } from "@/components/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { currentStaff } from "@/lib/auth/require-staff";
import { hasAnyUser } from "@/lib/auth/users";
import { mailConfigured } from "@/lib/mail/mailer";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Plant Store" };

type SearchParams = Promise<{ callbackUrl?: string | string[]; setup?: string }>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const { callbackUrl, setup } = await searchParams;
  const back = safeCallbackPath(callbackUrl);
  if (!(await hasAnyUser())) redirect("/setup");
  if (await currentStaff()) redirect(back);
  return (
    <main id="main" className="narrow">
      <h1>Sign in to Plant Store</h1>
      {setup === "done" && (
        <p className="confirmation" role="status">
          Your owner account is ready. Sign in with it.
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

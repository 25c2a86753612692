import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PasswordResetRequestForm } from "@/components/sign-in/password-reset-request-form";
import { mailConfigured } from "@/lib/mail/mailer";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forgot your password? · Plant Store" };

// Only with a mail server (SMTP_URL): without one, the sign-in page tells people to ask an owner for a reset link.
export default function ForgotPasswordPage() {
  if (!mailConfigured()) notFound();
  return (
    <main id="main" className="narrow">
      <h1>Forgot your password?</h1>
      <p>Type your account&apos;s email, and we will send it a link to choose a new password.</p>
      <PasswordResetRequestForm />
      <p>
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}

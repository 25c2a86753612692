import Link from "next/link";
import type { ReactNode } from "react";
import { tooManyLinkAttempts } from "@/lib/validations/rate-limit-sentences";
import type { LinkPurpose, LinkState } from "@/lib/validations/user-options";

/** Why a link's page has no form: what openLinkFrom (lib/auth/accounts/link-attempts.ts) found, other than valid. */
type Refusal = { state: Exclude<LinkState, "valid"> } | { state: "rate-limited"; waitSeconds: number };

const HEADINGS: Record<LinkPurpose, string> = {
  invitation: "This invitation cannot be used",
  password_reset: "This password reset link cannot be used",
};

/**
 * The whole page for a one-time link that cannot be used, saying why in
 * words and what to do instead; no form, so nobody is signed in from here.
 * `resetByEmail`: whether people can ask for a reset link themselves (a mail
 * server is configured), rather than ask an owner for one.
 */
export function UnusableLink({ purpose, refusal, resetByEmail }: { purpose: LinkPurpose; refusal: Refusal; resetByEmail: boolean }) {
  if (refusal.state === "rate-limited") {
    return (
      <main id="main" className="narrow">
        <h1>Too many links tried</h1>
        <p>{tooManyLinkAttempts(refusal.waitSeconds)}</p>
      </main>
    );
  }
  return (
    <main id="main" className="narrow">
      <h1>{HEADINGS[purpose]}</h1>
      <p>{purpose === "invitation" ? invitationReason(refusal.state) : resetReason(refusal.state, resetByEmail)}</p>
    </main>
  );
}

function invitationReason(state: Exclude<Refusal["state"], "rate-limited">): ReactNode {
  switch (state) {
    case "expired":
      return "It has expired: an invitation works for 7 days. Ask an owner of this store for a new one.";
    case "used":
      return (
        <>
          It has already been used: <Link href="/sign-in">sign in</Link> instead.
        </>
      );
    case "withdrawn":
      return "It was withdrawn, or replaced by a newer invitation: use the newest one you were sent, or ask an owner of this store for a new one.";
    case "unknown":
      return "It is not known here: check that the link was copied whole, or ask an owner of this store for a new one.";
  }
}

function resetReason(state: Exclude<Refusal["state"], "rate-limited">, resetByEmail: boolean): ReactNode {
  const askAgain = resetByEmail ? (
    <>
      <Link href="/forgot-password">Ask for a new link</Link>.
    </>
  ) : (
    "Ask an owner of this store for a new one."
  );
  switch (state) {
    case "expired":
      return <>It has expired: a reset link works for 24 hours. {askAgain}</>;
    case "used":
      return (
        <>
          It has already been used: <Link href="/sign-in">sign in</Link> with the password you chose then. If you have forgotten it, {resetByEmail ? <Link href="/forgot-password">ask for a new link</Link> : "ask an owner of this store for a new link"}.
        </>
      );
    case "withdrawn":
      return <>It was withdrawn, or replaced by a newer link: use the newest one you were sent. {askAgain}</>;
    case "unknown":
      return <>It is not known here: check that the link was copied whole. {askAgain}</>;
  }
}

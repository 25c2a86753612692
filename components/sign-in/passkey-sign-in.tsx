"use client";

import * as webauthn from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { startPasskeySignIn } from "@/app/sign-in/actions";
import { FormError } from "@/components/forms/form-error";
import { useHydrated } from "@/lib/client/use-hydrated";
import { SIGN_IN_RATE_LIMITED, SIGN_IN_SSO_ONLY } from "@/lib/validations/user-options";

const UNREACHABLE = "You are not signed in: the server could not be reached. Check your connection and try again.";
const REFUSED = "That passkey did not sign you in. It may have been removed from your account.";

type Outcome = { signedIn: true } | { error: string } | { cancelled: true };

/**
 * "Sign in with a passkey", and, where the browser offers passkeys in the email
 * field's autofill (conditional mediation), that too, started with the page.
 * The button's request aborts the autofill's (@simplewebauthn/browser allows
 * one ceremony at a time). @simplewebauthn/browser (about 4 kB gzipped) comes
 * with the page, since the autofill starts at once and a page fetches no
 * script by itself (issue 20); next-auth's client loads with the first sign-in,
 * as the password form's does.
 */
export function PasskeySignIn({ callbackPath }: { callbackPath: string }) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  function finish(outcome: Outcome) {
    if ("signedIn" in outcome) {
      // A full load, so every server component renders for the new session; callbackPath was checked on the server.
      window.location.assign(callbackPath);
      return;
    }
    if ("error" in outcome) setError(outcome.error);
  }

  useEffect(() => {
    let live = true;
    void (async () => {
      if (!(await webauthn.browserSupportsWebAuthnAutofill())) return;
      const outcome = await signInWithPasskey(true);
      if (live) finish(outcome);
    })();
    return () => {
      live = false;
    };
    // finish only reads callbackPath, fixed for the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onClick() {
    setError(undefined);
    setPending(true);
    const outcome = await signInWithPasskey(false);
    if (!("signedIn" in outcome)) setPending(false);
    finish(outcome);
  }

  return (
    <div className="stack">
      <button type="button" onClick={onClick} disabled={pending || !hydrated}>
        {pending ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </button>
      <FormError message={error} />
    </div>
  );
}

async function signInWithPasskey(autofill: boolean): Promise<Outcome> {
  if (!autofill && !webauthn.browserSupportsWebAuthn()) return { error: "This browser cannot use passkeys. Sign in with your email and password." };
  const started = await startPasskeySignIn().catch(() => undefined);
  if (!started) return { error: UNREACHABLE };
  if ("error" in started) return { error: started.error };
  let response;
  try {
    response = await webauthn.startAuthentication({ optionsJSON: started.options, useBrowserAutofill: autofill });
  } catch (error) {
    // Cancelled by the person, timed out, or (the autofill's) aborted by the button's own request.
    const name = error instanceof Error ? error.name : "";
    if (autofill || name === "AbortError") return { cancelled: true };
    return name === "NotAllowedError" ? { error: "No passkey was used: the request was cancelled or timed out." } : { error: "The browser could not use a passkey." };
  }
  const nextAuth = await import("next-auth/react").catch(() => undefined);
  if (!nextAuth) return { error: UNREACHABLE };
  const result = await nextAuth.signIn("passkey", { challengeId: started.challengeId, response: JSON.stringify(response), redirect: false }).catch(() => undefined);
  if (result === undefined) return { error: UNREACHABLE };
  if (result?.ok) return { signedIn: true };
  const [reason, seconds] = (result?.error ?? "").split(":");
  if (reason === SIGN_IN_RATE_LIMITED) return { error: `Too many failed sign-ins. Wait ${Math.max(1, Math.ceil(Number(seconds) / 60))} minutes, then try again.` };
  if (reason === SIGN_IN_SSO_ONLY) return { error: "This store's staff sign in with the company sign-in only: use its button." };
  return { error: REFUSED };
}

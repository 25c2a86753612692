"use client";

import { useState } from "react";
import { FormError } from "@/components/forms/form-error";
import { useHydrated } from "@/lib/client/use-hydrated";

const UNREACHABLE = "The company sign-in could not be started: the server could not be reached. Check your connection and try again.";

/**
 * The company sign-in (issue 34): next-auth's client asks the server for the
 * provider's authorization URL (with its state, PKCE and nonce cookies) and
 * the browser goes there; the provider sends it back to the callback, which
 * signs in and goes on to `callbackPath`. next-auth's client loads with the
 * click, as the password form's does (issue 20).
 */
export function SingleSignOnButton({ name, callbackPath }: { name: string; callbackPath: string }) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  async function onClick() {
    setError(undefined);
    setPending(true);
    const nextAuth = await import("next-auth/react").catch(() => undefined);
    // On success the page is left for the provider's; signIn answers only when it could not start.
    await nextAuth?.signIn("oidc", { callbackUrl: callbackPath }).catch(() => undefined);
    setPending(false);
    setError(UNREACHABLE);
  }

  return (
    <div className="stack">
      <button type="button" onClick={onClick} disabled={pending || !hydrated}>
        {pending ? "Going to your company sign-in…" : name}
      </button>
      <FormError message={error} />
    </div>
  );
}

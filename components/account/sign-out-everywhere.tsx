"use client";

import { useState, useTransition } from "react";
import { signOutEverywhereElse } from "@/app/(staff)/account/actions";
import { FormError } from "@/components/forms/form-error";
import { useHydrated } from "@/lib/client/use-hydrated";

/** "Sign out everywhere": ends the person's sessions in every other browser and device at once; this one goes on. */
export function SignOutEverywhere() {
  const hydrated = useHydrated();
  const [pending, startTransition] = useTransition();
  const [status, setStatus] = useState<string>();
  const [failed, setFailed] = useState(false);

  function signOut() {
    setStatus(undefined);
    setFailed(false);
    startTransition(async () => {
      try {
        await signOutEverywhereElse();
        setStatus("You are signed out everywhere else. You stay signed in here.");
      } catch {
        setFailed(true);
      }
    });
  }

  return (
    <>
      <button type="button" className="danger" onClick={signOut} disabled={pending || !hydrated}>
        {pending ? "Signing out…" : "Sign out everywhere"}
      </button>
      <p role="status" className="confirmation">
        {status}
      </p>
      <FormError message={failed ? "The server could not be reached. Check your connection and try again." : undefined} />
    </>
  );
}

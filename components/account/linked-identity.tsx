"use client";

import { useState, useTransition } from "react";
import { unlinkOwnIdentity } from "@/app/(staff)/account/actions";
import { FormError } from "@/components/forms/form-error";
import { LocalTime } from "@/components/shared/local-time";
import { useHydrated } from "@/lib/client/use-hydrated";

/**
 * The person's company account, linked by single sign-on (issue 34): which
 * provider, which email, since when; unlinked here while a password or a
 * passkey is left to sign in with (the server checks again).
 */
export function LinkedIdentity({ provider, email, linkedAt, canUnlink }: { provider: string; email: string; linkedAt: string; canUnlink: boolean }) {
  const hydrated = useHydrated();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();

  function unlink() {
    setError(undefined);
    startTransition(async () => {
      const result = await unlinkOwnIdentity().catch(() => ({ error: "The server could not be reached. Check your connection and try again." }));
      if ("error" in result) setError(result.error);
    });
  }

  return (
    <>
      <p>
        Linked to your company account <strong>{email}</strong> at {provider}, since <LocalTime date={linkedAt} />.
      </p>
      {canUnlink ? (
        <button type="button" className="secondary" onClick={unlink} disabled={pending || !hydrated}>
          {pending ? "Unlinking…" : "Unlink company account"}
        </button>
      ) : (
        <p>It is your only way to sign in: set a password (with a reset link) or add a passkey before you can unlink it.</p>
      )}
      <FormError message={error} />
    </>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deletePasskey } from "@/app/(staff)/account/passkey-actions";
import { FormError } from "@/components/forms/form-error";
import { LocalTime } from "@/components/shared/local-time";
import { useHydrated } from "@/lib/client/use-hydrated";

export type ShownPasskey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** The person's passkeys, each with when it was added and last used, and a button that removes it. */
export function PasskeyList({ passkeys }: { passkeys: ShownPasskey[] }) {
  const hydrated = useHydrated();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();

  function remove(passkey: ShownPasskey) {
    setStatus(undefined);
    setFailure(undefined);
    startTransition(async () => {
      const result = await deletePasskey({ id: passkey.id }).catch(() => undefined);
      if (!result) return setFailure("The server could not be reached. Check your connection and try again.");
      if ("error" in result) return setFailure(result.error);
      setStatus(`Passkey “${passkey.name}” removed. You are signed out everywhere else.`);
      router.refresh();
    });
  }

  return (
    <>
      {passkeys.length === 0 ? (
        <p>You have no passkeys yet.</p>
      ) : (
        <ul className="passkey-list">
          {passkeys.map((passkey) => (
            <li key={passkey.id}>
              <strong>{passkey.name}</strong>
              <span>
                Added <LocalTime date={passkey.createdAt} />, last used <LocalTime date={passkey.lastUsedAt} fallback="never" />
              </span>
              <button type="button" className="danger" onClick={() => remove(passkey)} disabled={pending || !hydrated} aria-label={`Remove passkey ${passkey.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="confirmation">
        {status}
      </p>
      <FormError message={failure} />
    </>
  );
}

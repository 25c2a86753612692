"use client";

import { useState } from "react";
import { rotateSecret } from "@/app/(staff)/webhooks/actions";
import { FormError } from "@/components/forms/form-error";
import { ScriptButton } from "@/components/shared/script-button";
import { SecretOnce } from "@/components/shared/secret-once";
import { LocalTime } from "@/components/shared/local-time";

/** Rotates an endpoint's signing secret and shows the new one, once; the previous one keeps signing for 24 hours. */
export function WebhookRotateSecret({ endpointId }: { endpointId: string }) {
  const [pending, setPending] = useState(false);
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | null }>();
  const [error, setError] = useState<string>();

  async function rotate() {
    setPending(true);
    setRotated(undefined);
    setError(undefined);
    try {
      const result = await rotateSecret(endpointId);
      if ("rotated" in result) setRotated(result.rotated);
      else setError(result.error);
    } finally {
      setPending(false);
    }
  }

  const until = rotated?.previousSecretExpiresAt;
  return (
    <div className="action">
      <p className="hint" id="rotate-secret-hint">
        Makes a new signing secret and shows it once. The current secret keeps signing beside it for 24 hours, so the receiver can switch over
        without missing a delivery.
      </p>
      <ScriptButton onClick={rotate} disabled={pending} aria-describedby="rotate-secret-hint">
        {pending ? "Rotating…" : "Rotate secret"}
      </ScriptButton>
      <FormError message={error} />
      <div role="status">
        {rotated && (
          <SecretOnce id="rotated-webhook-secret" label="New signing secret" secret={rotated.secret}>
            <p>
              <strong>Copy the new signing secret now:</strong> it will not be shown again. The old secret keeps signing deliveries for 24 more
              hours{until && <> (until <LocalTime date={new Date(until)} />)</>}; give the receiver the new one before then.
            </p>
          </SecretOnce>
        )}
      </div>
    </div>
  );
}

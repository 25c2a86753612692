"use client";

import { useState } from "react";
import { sendTestEvent } from "@/app/(staff)/webhooks/actions";
import { FormError } from "@/components/forms/form-error";
import { ScriptButton } from "@/components/shared/script-button";

/** Queues a webhook.test event for one endpoint; its delivery appears under the endpoint's recent deliveries. */
export function WebhookTestEvent({ endpointId }: { endpointId: string }) {
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState("");
  const [error, setError] = useState<string>();

  async function send() {
    setPending(true);
    setSent("");
    setError(undefined);
    try {
      const result = await sendTestEvent(endpointId);
      if ("sent" in result) setSent(`Test event ${result.sent.eventId} queued: its delivery is listed under Recent deliveries.`);
      else setError(result.error);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="action">
      <p className="hint" id="test-event-hint">
        Sends a <code>webhook.test</code> event to this endpoint only, whatever events it receives, to check that it is reached and verifies the
        signature.
      </p>
      <ScriptButton onClick={send} disabled={pending} aria-describedby="test-event-hint">
        {pending ? "Sending…" : "Send test event"}
      </ScriptButton>
      <FormError message={error} />
      <p className="confirmation" role="status">
        {sent}
      </p>
    </div>
  );
}

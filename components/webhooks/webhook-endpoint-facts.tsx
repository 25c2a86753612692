import type { ComponentProps } from "react";
import { LocalTime } from "@/components/shared/local-time";
import { WebhookEndpointStatus } from "@/components/webhooks/webhook-endpoint-status";

// The parts of lib/webhooks/endpoints.ts's WebhookEndpointInfo shown here (browser code imports no server module, types included).
type Endpoint = ComponentProps<typeof WebhookEndpointStatus> & { description: string; events: readonly string[]; failingSince: Date | null; previousSecretExpiresAt: Date | null; createdAt: Date };

/**
 * What an endpoint receives and how it is doing, on the webhooks list and on
 * its own page. Its page (`full`) also gives its description, which the list
 * shows under the URL, and whether its signing secret is being rotated.
 */
export function WebhookEndpointFacts({ endpoint, full = false }: { endpoint: Endpoint; full?: boolean }) {
  return (
    <dl className="facts">
      {full && endpoint.description && (
        <div>
          <dt>Description</dt>
          <dd>{endpoint.description}</dd>
        </div>
      )}
      <div>
        <dt>Events</dt>
        <dd>{endpoint.events.join(", ")}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <WebhookEndpointStatus {...endpoint} />
        </dd>
      </div>
      <div>
        <dt>Failing since</dt>
        <dd>
          <LocalTime date={endpoint.failingSince} fallback="not failing" />
        </dd>
      </div>
      {full && (
        <div>
          <dt>Signing secret</dt>
          <dd>
            {endpoint.previousSecretExpiresAt ? (
              <>
                rotated; the previous secret also signs until <LocalTime date={endpoint.previousSecretExpiresAt} />
              </>
            ) : (
              "one secret"
            )}
          </dd>
        </div>
      )}
      <div>
        <dt>Added</dt>
        <dd>
          <LocalTime date={endpoint.createdAt} />
        </dd>
      </div>
    </dl>
  );
}

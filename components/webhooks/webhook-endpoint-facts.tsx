import type { ComponentProps } from "react";
import { Fact } from "@/components/shared/fact";
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
      {full && endpoint.description && <Fact term="Description">{endpoint.description}</Fact>}
      <Fact term="Events">{endpoint.events.join(", ")}</Fact>
      <Fact term="Status">
        <WebhookEndpointStatus {...endpoint} />
      </Fact>
      <Fact term="Failing since">
        <LocalTime date={endpoint.failingSince} fallback="not failing" />
      </Fact>
      {full && (
        <Fact term="Signing secret">
          {endpoint.previousSecretExpiresAt ? (
            <>
              rotated; the previous secret also signs until <LocalTime date={endpoint.previousSecretExpiresAt} />
            </>
          ) : (
            "one secret"
          )}
        </Fact>
      )}
      <Fact term="Added">
        <LocalTime date={endpoint.createdAt} />
      </Fact>
    </dl>
  );
}

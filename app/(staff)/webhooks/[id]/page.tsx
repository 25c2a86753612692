import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { disableEndpoint, enableEndpoint, resendDelivery } from "@/app/(staff)/webhooks/actions";
import { Fact } from "@/components/shared/fact";
import { LocalTime } from "@/components/shared/local-time";
import { WebhookDeleteDialog } from "@/components/webhooks/webhook-delete-dialog";
import { WebhookEndpointFacts } from "@/components/webhooks/webhook-endpoint-facts";
import { WebhookEndpointForm } from "@/components/webhooks/webhook-endpoint-form";
import { WebhookRotateSecret } from "@/components/webhooks/webhook-rotate-secret";
import { WebhookTestEvent } from "@/components/webhooks/webhook-test-event";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { type DeliveryInfo, listDeliveries, RECENT_DELIVERIES } from "@/lib/webhooks/deliveries";
import { findWebhookEndpoint, type WebhookEndpointInfo } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Webhook endpoint · Plant Store" };

type Params = Promise<{ id: string }>;

export default async function WebhookEndpointPage({ params }: { params: Params }) {
  const { id } = await params;
  await requireOwner(`/webhooks/${encodeURIComponent(id)}`);
  const endpoint = await findWebhookEndpoint(id);
  if (!endpoint) notFound();
  const deliveries = await listDeliveries(endpoint.id);
  return (
    <>
      <p className="breadcrumb">
        <Link href="/webhooks">All webhooks</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <p className="url endpoint-url">{endpoint.url}</p>
      <WebhookEndpointFacts endpoint={endpoint} full />

      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Change the endpoint</h2>
        <WebhookEndpointForm endpoint={{ id: endpoint.id, url: endpoint.url, description: endpoint.description, events: endpoint.events }} />
      </section>

      <section aria-labelledby="manage-heading">
        <h2 id="manage-heading">Manage</h2>
        <div className="actions">
          <EnableOrDisable endpoint={endpoint} />
          <WebhookTestEvent endpointId={endpoint.id} />
          <WebhookRotateSecret endpointId={endpoint.id} />
          <WebhookDeleteDialog endpointId={endpoint.id} url={endpoint.url} />
        </div>
      </section>

      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Recent deliveries</h2>
        {deliveries.length === 0 ? (
          <p>No deliveries yet.</p>
        ) : (
          <>
            <p className="hint">The latest {RECENT_DELIVERIES}, newest first. A resend delivers the same event again, with the same webhook-id.</p>
            <ol className="cards">
              {deliveries.map((delivery) => (
                <li key={delivery.id} className="card">
                  <Delivery endpointId={endpoint.id} delivery={delivery} />
                </li>
              ))}
            </ol>
          </>
        )}
      </section>
    </>
  );
}

// The one form that turns an endpoint off or on again: its action, and the words for each.
const DISABLE = { action: disableEndpoint, hintId: "disable-hint", hint: "Stops sending to this endpoint. Events that happen while it is disabled are not sent to it later.", label: "Disable endpoint" };
const ENABLE = { action: enableEndpoint, hintId: "enable-hint", hint: "Sends new events to this endpoint again, and forgets its past failures.", label: "Enable endpoint" };

function EnableOrDisable({ endpoint }: { endpoint: WebhookEndpointInfo }) {
  const { action, hintId, hint, label } = endpoint.enabled ? DISABLE : ENABLE;
  return (
    <form action={action} className="action">
      <p className="hint" id={hintId}>
        {hint}
      </p>
      <input type="hidden" name="endpointId" value={endpoint.id} />
      <button type="submit" aria-describedby={hintId}>
        {label}
      </button>
    </form>
  );
}

function Delivery({ endpointId, delivery }: { endpointId: string; delivery: DeliveryInfo }) {
  return (
    <>
      <h3 className="card-title">
        {delivery.eventType} <span className={`badge badge-${delivery.status}`}>{delivery.status}</span>
      </h3>
      <dl className="facts">
        <Fact term="webhook-id" className="id">{delivery.eventId}</Fact>
        <Fact term="Attempts">{delivery.attempts}</Fact>
        <Fact term="Last response">
          {delivery.lastAttemptAt ? (
            <>
              {delivery.lastStatus === null ? "no answer" : `HTTP ${delivery.lastStatus}`}, <LocalTime date={delivery.lastAttemptAt} />
            </>
          ) : (
            "not tried yet"
          )}
        </Fact>
        <Fact term="Next attempt">
          <LocalTime date={delivery.nextAttemptAt} fallback="none" />
        </Fact>
        <Fact term="Last error">{delivery.lastError ?? "none"}</Fact>
        <Fact term="Queued">
          <LocalTime date={delivery.createdAt} />
        </Fact>
      </dl>
      <form action={resendDelivery}>
        <input type="hidden" name="endpointId" value={endpointId} />
        <input type="hidden" name="deliveryId" value={delivery.id} />
        <button type="submit" className="secondary" aria-label={`Resend ${delivery.eventType} ${delivery.eventId}`}>
          Resend
        </button>
      </form>
    </>
  );
}

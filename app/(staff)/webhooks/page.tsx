import type { Metadata } from "next";
import Link from "next/link";
import { WebhookEndpointFacts } from "@/components/webhooks/webhook-endpoint-facts";
import { WebhookEndpointForm } from "@/components/webhooks/webhook-endpoint-form";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { listWebhookEndpoints } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Webhooks · Plant Store" };

// Owners only: an endpoint makes the app send requests where its URL says,
// signed with a secret that only this page and the CLI ever show.
export default async function WebhooksPage() {
  await requireOwner("/webhooks");
  const endpoints = await listWebhookEndpoints();
  return (
    <>
      <h1>Webhooks</h1>
      <p>
        When plants are added or deleted, Plant Store sends the event to each endpoint that asked for it: an HTTP POST signed with the endpoint’s
        secret (Standard Webhooks), retried until the receiver answers with a 2xx status.
      </p>
      <section aria-labelledby="add-endpoint-heading">
        <h2 id="add-endpoint-heading">Add an endpoint</h2>
        <WebhookEndpointForm />
      </section>
      <section aria-labelledby="endpoint-list-heading">
        <h2 id="endpoint-list-heading">Endpoints</h2>
        {endpoints.length === 0 ? (
          <p>No endpoints yet.</p>
        ) : (
          <ul className="cards">
            {endpoints.map((endpoint) => (
              <li key={endpoint.id} className="card">
                <h3 className="card-title">
                  <Link href={`/webhooks/${endpoint.id}`} className="url">
                    {endpoint.url}
                  </Link>
                </h3>
                {endpoint.description && <p className="card-description">{endpoint.description}</p>}
                <WebhookEndpointFacts endpoint={endpoint} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, createToken, freePort, startApp } from "@/test/support/app-server";
import { addWebhookEndpoint, deliveryRows } from "@/test/support/webhook-endpoints";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

// SSRF at call time: the app runs with private targets NOT allowed, and
// endpoints that point at this machine are written straight into its
// database, past the checks made when an endpoint is saved (as an old row, a
// changed setting or DNS that now answers otherwise would leave them). The
// worker never connects to them, and each delivery records why.

let app: AppServer;
let receiver: WebhookReceiver;
let metricsPort: number;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  metricsPort = await freePort();
  app = await startApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "false", WEBHOOK_RETRY_SCHEDULE: "0,200ms,200ms", METRICS_PORT: String(metricsPort) } });
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

it("never calls an endpoint on a loopback address, and records the refusal on its deliveries", async () => {
  const targets = [
    { url: `http://127.0.0.1:${receiver.port}/webhooks`, error: "refused: the endpoint's URL must be an https:// URL" },
    { url: `https://127.0.0.1:${receiver.port}/webhooks`, error: /^refused: the endpoint's host resolves to 127\.0\.0\.1, a private, loopback or link-local address/ },
    { url: `https://localhost:${receiver.port}/webhooks`, error: /^refused: the endpoint's host resolves to (127\.0\.0\.1|::1), a private, loopback or link-local address/ },
    { url: `https://[::ffff:127.0.0.1]:${receiver.port}/webhooks`, error: /^refused: the endpoint's host resolves to ::ffff:7f00:1, a private/ },
  ];
  const endpoints = await Promise.all(targets.map((target) => addWebhookEndpoint(app.database, { url: target.url, events: ["plant.created"] })));
  const token = await createToken(app.database, ["plants:write"]);
  const created = await fetch(`${app.url}/plants`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: '{"id":1,"name":"Bait"}' });
  expect(created.status).toBe(200);

  // Each attempt is refused like any failure: retried on the schedule, then failed.
  for (const [index, endpoint] of endpoints.entries()) {
    await expect.poll(() => deliveryRows(app.database, endpoint.id), { timeout: 10_000 }).toEqual([
      expect.objectContaining({ status: "failed", attempts: 3, lastStatus: null, lastError: expect.stringMatching(targets[index]!.error) }),
    ]);
  }
  expect(receiver.connections()).toBe(0);
  expect(receiver.received).toEqual([]);

  const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  expect(scraped).toMatch(/^plant_store_webhook_deliveries_total\{outcome="refused"\} 12$/m);
});

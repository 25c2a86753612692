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
  const loopback = String.raw`, which (is in|carries 127\.0\.0\.1 .*, which is in) 127\.0\.0\.0/8 \(Loopback, RFC 1122 section 3\.2\.1\.3\); webhooks go to public addresses only$`;
  const refusedAs = (address: string) => new RegExp(`^refused: the endpoint's host resolves to ${address}${loopback}`);
  const targets = [
    { url: `http://127.0.0.1:${receiver.port}/webhooks`, error: /^refused: the endpoint's URL must be an https:\/\/ URL$/ },
    { url: `https://127.0.0.1:${receiver.port}/webhooks`, error: refusedAs(String.raw`127\.0\.0\.1`) },
    { url: `https://localhost:${receiver.port}/webhooks`, error: /^refused: the endpoint's host resolves to (127\.0\.0\.1|::1), which is in (127\.0\.0\.0\/8 \(Loopback|::1\/128 \(Loopback Address)/ },
    { url: `https://[::ffff:127.0.0.1]:${receiver.port}/webhooks`, error: refusedAs("::ffff:7f00:1") },
    // Issue 20: every IPv6 form that carries an IPv4 address is judged by that address.
    { url: `https://[::127.0.0.1]:${receiver.port}/webhooks`, error: refusedAs("::7f00:1") },
    { url: `https://[64:ff9b::127.0.0.1]:${receiver.port}/webhooks`, error: refusedAs("64:ff9b::7f00:1") },
    { url: `https://[2002:7f00:1::1]:${receiver.port}/webhooks`, error: refusedAs("2002:7f00:1::1") },
    { url: `https://[2001:0:808:808::80ff:fffe]:${receiver.port}/webhooks`, error: refusedAs("2001:0:808:808::80ff:fffe") },
  ];
  const endpoints = await Promise.all(targets.map((target) => addWebhookEndpoint(app.database, { url: target.url, events: ["plant.created"] })));
  const token = await createToken(app.database, ["plants:write"]);
  const created = await fetch(`${app.url}/plants`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: '{"id":1,"name":"Bait"}' });
  expect(created.status).toBe(200);

  // Each attempt is refused like any failure: retried on the schedule, then failed.
  for (const [index, endpoint] of endpoints.entries()) {
    await expect.poll(() => deliveryRows(app.database, endpoint.id)).toEqual([
      expect.objectContaining({ status: "failed", attempts: 3, lastStatus: null, lastError: expect.stringMatching(targets[index]!.error) }),
    ]);
  }
  expect(receiver.connections()).toBe(0);
  expect(receiver.received).toEqual([]);

  const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  expect(scraped).toMatch(new RegExp(String.raw`^plant_store_webhook_deliveries_total\{outcome="refused"\} ${targets.length * 3}$`, "m"));
});

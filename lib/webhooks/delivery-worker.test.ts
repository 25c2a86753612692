import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createPlant, deletePlant } from "@/lib/plants/plant-queries";
import { metrics } from "@/lib/server/metrics";
import { startWebhookWorker, type WebhookWorker } from "@/lib/webhooks/delivery-worker";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { parseDeliveryBody, startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The worker in this process, on a real database of the run's engine, sending
// to a real receiver that verifies every delivery.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
vi.stubEnv("WEBHOOK_RETRY_SCHEDULE", "0,100ms,200ms");
// An attempt's time-out well above what these tests bound their waits by, so
// that "cut short" and "without waiting" stay true on two busy cores.
vi.stubEnv("WEBHOOK_TIMEOUT_MS", "5000");
setUpTestDatabase();

let receiver: WebhookReceiver;
let worker: WebhookWorker | undefined;
let nextPlant = 1n;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.script(() => ({ status: 200 }));
});

afterEach(async () => {
  await worker?.stop(1_000);
  worker = undefined;
  await db().webhookEndpoint.deleteMany();
});

async function endpoint(events: ("plant.created" | "plant.deleted")[] = ["plant.created", "plant.deleted"]) {
  const { endpoint, secret } = await createWebhookEndpoint({ url: receiver.url, events, description: "" }, TEST_BY);
  receiver.secrets = [secret];
  return endpoint;
}

async function counted(outcome: string): Promise<number> {
  return (await metrics().webhookDeliveries.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

it("delivers each event once, verified, and counts it", async () => {
  const target = await endpoint();
  const before = await counted("delivered");
  worker = startWebhookWorker({ pollMs: 100 });
  const ids = [nextPlant++, nextPlant++, nextPlant++];
  await Promise.all(ids.map((id) => createPlant({ id, name: "Sent" }, TEST_BY)));
  await deletePlant(ids[0]!, TEST_BY);
  await receiver.waitFor("4 deliveries", () => receiver.received.length === 4);
  expect(receiver.unverified()).toEqual([]);
  const bodies = receiver.received.map((delivery) => parseDeliveryBody(delivery.body));
  expect(bodies.map((body) => `${body.type} ${body.data.id}`).sort()).toEqual([...ids.map((id) => `plant.created ${id}`), `plant.deleted ${ids[0]}`].sort());
  await expect.poll(() => db().webhookDelivery.count({ where: { endpointId: target.id, status: "delivered", attempts: 1 } })).toBe(4);
  await expect.poll(() => counted("delivered")).toBe(before + 4);
});

it("wakes when a plant is written rather than waiting for its poll", async () => {
  await endpoint();
  // Its next poll is an hour away once it has started: a delivery within the test's life is a wake.
  worker = startWebhookWorker({ pollMs: 3_600_000 });
  await createPlant({ id: nextPlant++, name: "Started" }, TEST_BY);
  await receiver.waitFor("the first delivery", () => receiver.received.length === 1);
  await createPlant({ id: nextPlant++, name: "Nudged" }, TEST_BY);
  await receiver.waitFor("the delivery of a plant written after the worker's poll", () => receiver.received.length === 2);
});

it("retries on the schedule until the receiver answers 2xx, with the same webhook-id", async () => {
  await endpoint(["plant.created"]);
  receiver.script((delivery) => (delivery.repeat < 2 ? { status: 500 } : { status: 200 }));
  // An hour between polls: three attempts within the test's life kept the schedule without one.
  worker = startWebhookWorker({ pollMs: 3_600_000 });
  await createPlant({ id: nextPlant++, name: "Retried" }, TEST_BY);
  await receiver.waitFor("3 attempts", () => receiver.received.length === 3);
  expect(new Set(receiver.received.map((delivery) => delivery.id)).size).toBe(1);
  // The short schedule: 100 ms, then 200 ms, ±20 %, and no sooner.
  const [first, second, third] = receiver.received.map((delivery) => delivery.receivedAt);
  expect(second! - first!).toBeGreaterThanOrEqual(75);
  expect(third! - second!).toBeGreaterThanOrEqual(155);
  await expect.poll(() => db().webhookDelivery.findFirst({ select: { status: true, attempts: true } })).toEqual({ status: "delivered", attempts: 3 });
});

it("signs with the current secret when a rotated-out one cannot be read, and records a failure of its own when the current one cannot", async () => {
  const readable = await endpoint(["plant.created"]);
  await db().webhookEndpoint.update({ where: { id: readable.id }, data: { previousSecret: "v1.AAAA.AAAA.AAAA", previousSecretExpiresAt: new Date(Date.now() + 60_000) } });
  const unreadable = (await createWebhookEndpoint({ url: `${receiver.url}/unreadable`, events: ["plant.created"], description: "" }, TEST_BY)).endpoint;
  await db().webhookEndpoint.update({ where: { id: unreadable.id }, data: { secret: "v1.AAAA.AAAA.AAAA" } });
  worker = startWebhookWorker({ pollMs: 100 });
  await createPlant({ id: nextPlant++, name: "Signed" }, TEST_BY);
  await receiver.waitFor("the readable endpoint's delivery", () => receiver.received.length === 1);
  expect(receiver.unverified()).toEqual([]);
  expect(receiver.received[0]!.signature.split(" ")).toHaveLength(1);
  await expect
    .poll(() => db().webhookDelivery.findFirst({ where: { endpointId: unreadable.id }, select: { status: true, lastStatus: true, lastError: true } }))
    .toEqual({ status: "failed", lastStatus: null, lastError: "the endpoint's secret cannot be read with this NEXTAUTH_SECRET; rotate it" });
  expect(receiver.received).toHaveLength(1);
  // Not the receiver's fault: its failure streak does not start.
  expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: unreadable.id } })).failingSince).toBeNull();
});

it("on stop, cuts short an attempt still running after the wait and gives its delivery back unsent", async () => {
  await endpoint(["plant.created"]);
  receiver.script(() => ({ status: 200, hang: true }));
  worker = startWebhookWorker({ pollMs: 100 });
  await createPlant({ id: nextPlant++, name: "Interrupted" }, TEST_BY);
  await receiver.waitFor("the attempt", () => receiver.received.length === 1);
  await worker.stop(200);
  // Cut short, not ended by the attempt's own 5 s time-out: that would have been recorded as an attempt.
  expect(await db().webhookDelivery.findFirst({ select: { status: true, attempts: true, claimedUntil: true } })).toEqual({ status: "pending", attempts: 0, claimedUntil: null });
});

import { afterEach, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createPlant } from "@/lib/plants/plant-queries";
import { CLAIM_MARGIN_MS, claimDueDeliveries, releaseClaims } from "@/lib/webhooks/delivery-claims";
import { createWebhookEndpoint, disableWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Claims, on a real database of the run's engine: a due delivery goes to one
// claim at a time, however many claim at once, and a claim lapses.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
vi.stubEnv("WEBHOOK_TIMEOUT_MS", "1000");
setUpTestDatabase();

let nextPlant = 1n;

async function deliveriesFor(count: number): Promise<string> {
  const { endpoint } = await createWebhookEndpoint({ url: "http://127.0.0.1:9/hooks", events: ["plant.created"], description: "" }, TEST_BY);
  await Promise.all(Array.from({ length: count }, () => createPlant({ id: nextPlant++, name: "Claimed" }, TEST_BY)));
  return endpoint.id;
}

afterEach(async () => {
  await db().webhookEndpoint.deleteMany();
});

it("claims each due delivery once, the longest waiting first, until released or lapsed", async () => {
  await deliveriesFor(5);
  const now = new Date();
  const first = await claimDueDeliveries(3, now);
  expect(first.ids).toHaveLength(3);
  expect(first.until.getTime()).toBe(now.getTime() + 1_000 + CLAIM_MARGIN_MS);
  const second = await claimDueDeliveries(10);
  expect(second.ids).toHaveLength(2);
  expect(second.ids.filter((id) => first.ids.includes(id))).toEqual([]);
  expect((await claimDueDeliveries(10)).ids).toEqual([]);

  // Only the claim's own holder releases it.
  await releaseClaims(first.ids, new Date(first.until.getTime() + 1));
  expect((await claimDueDeliveries(10)).ids).toEqual([]);
  await releaseClaims(first.ids, first.until);
  expect((await claimDueDeliveries(10)).ids.sort()).toEqual([...first.ids].sort());

  // A worker that died holding claims: they lapse, and another worker takes the deliveries.
  const afterLapse = await claimDueDeliveries(10, new Date(Date.now() + 1_000 + CLAIM_MARGIN_MS + 1));
  expect(afterLapse.ids).toHaveLength(5);
});

it("finds a delivery due the moment its write commits, however soon the worker looks", async () => {
  // The worker looks as soon as a plant write commits: its delivery must be due to a clock read after the
  // commit, even within the same millisecond (on PostgreSQL, the outbox's times were once rounded up to it).
  await deliveriesFor(0);
  for (let plant = 0; plant < 50; plant++) {
    await createPlant({ id: nextPlant++, name: "Due at once" }, TEST_BY);
    expect((await claimDueDeliveries(1)).ids).toHaveLength(1);
  }
});

it("passes over deliveries not yet due, already settled, or to a disabled endpoint", async () => {
  const endpointId = await deliveriesFor(4);
  const [later, delivered, failed] = await db().webhookDelivery.findMany({ where: { endpointId }, orderBy: { id: "asc" } });
  await db().webhookDelivery.update({ where: { id: later!.id }, data: { nextAttemptAt: new Date(Date.now() + 60_000) } });
  await db().webhookDelivery.update({ where: { id: delivered!.id }, data: { status: "delivered" } });
  await db().webhookDelivery.update({ where: { id: failed!.id }, data: { status: "failed" } });
  const [due] = (await claimDueDeliveries(10)).ids;
  expect(due).not.toBe(undefined);
  expect([later!.id, delivered!.id, failed!.id]).not.toContain(due);
  // Two minutes on, the later one is due too, and the first claim has lapsed.
  expect((await claimDueDeliveries(10, new Date(Date.now() + 120_000))).ids.sort()).toEqual([due, later!.id].sort());

  await db().webhookEndpoint.deleteMany();
  const disabled = await deliveriesFor(2);
  await disableWebhookEndpoint(disabled, "test", TEST_BY);
  expect((await claimDueDeliveries(10, new Date(Date.now() + 240_000))).ids).toHaveLength(0);
});

it("never hands one delivery to two claims made at once", async () => {
  await deliveriesFor(60);
  const claims = await Promise.all(Array.from({ length: 12 }, () => claimDueDeliveries(7)));
  const claimed = claims.flatMap((claim) => claim.ids);
  expect(new Set(claimed).size).toBe(claimed.length);
  const rest = await claimDueDeliveries(100);
  expect(new Set([...claimed, ...rest.ids]).size).toBe(60);
});

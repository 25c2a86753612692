import { afterEach, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createPlant } from "@/lib/plants/plant-queries";
import { claimDueDeliveries } from "@/lib/webhooks/delivery-claims";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { type ClaimedDelivery, FAILING_ENDPOINT_MS, FAILING_REASON, GONE_REASON, recordAttempt } from "@/lib/webhooks/record-attempt";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// What an attempt's outcome does to its delivery and endpoint, on a real
// database of the run's engine.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
setUpTestDatabase();

const SCHEDULE = [0, 1_000, 60_000];
const HALF = () => 0.5;
let nextPlant = 1n;

/** A fresh endpoint with one claimed delivery. */
async function claimed(): Promise<ClaimedDelivery> {
  const { endpoint } = await createWebhookEndpoint({ url: "http://127.0.0.1:9/hooks", events: ["plant.created"], description: "" }, TEST_BY);
  await createPlant({ id: nextPlant++, name: "Recorded" }, TEST_BY);
  const claim = await claimDueDeliveries(1);
  expect(claim.ids).toHaveLength(1);
  return { id: claim.ids[0]!, endpointId: endpoint.id, attempts: 0, claimedUntil: claim.until };
}

async function again(delivery: ClaimedDelivery, at: Date): Promise<ClaimedDelivery> {
  const claim = await claimDueDeliveries(1, at);
  expect(claim.ids).toEqual([delivery.id]);
  return { ...delivery, attempts: delivery.attempts + 1, claimedUntil: claim.until };
}

const row = (id: string) => db().webhookDelivery.findUniqueOrThrow({ where: { id } });
const endpointRow = (id: string) => db().webhookEndpoint.findUniqueOrThrow({ where: { id } });

afterEach(async () => {
  await db().webhookEndpoint.deleteMany();
});

it("marks a 2xx delivered and ends the endpoint's failure streak", async () => {
  const delivery = await claimed();
  await db().webhookEndpoint.update({ where: { id: delivery.endpointId }, data: { failingSince: new Date(Date.now() - 60_000) } });
  const now = new Date();
  expect(await recordAttempt(delivery, { status: 204, durationMs: 3 }, { schedule: SCHEDULE, now })).toEqual({ result: "delivered", recorded: true, nextAttemptAt: null });
  expect(await row(delivery.id)).toMatchObject({ status: "delivered", attempts: 1, lastStatus: 204, lastError: null, deliveredAt: now, lastAttemptAt: now, claimedUntil: null });
  expect((await endpointRow(delivery.endpointId)).failingSince).toBeNull();
});

it("schedules a failure for later, starting the endpoint's streak, and fails the delivery once the schedule is spent", async () => {
  const delivery = await claimed();
  const first = new Date();
  const recorded = await recordAttempt(delivery, { status: 500, error: "the endpoint answered 500", durationMs: 3 }, { schedule: SCHEDULE, now: first, random: HALF });
  expect(recorded).toEqual({ result: "retrying", recorded: true, nextAttemptAt: new Date(first.getTime() + 1_000) });
  expect(await row(delivery.id)).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "the endpoint answered 500", nextAttemptAt: recorded.nextAttemptAt, claimedUntil: null });
  expect((await endpointRow(delivery.endpointId)).failingSince).toEqual(first);

  // The streak keeps its start; a time-out has no status.
  const second = new Date(first.getTime() + 1_000);
  const retried = await again(delivery, second);
  expect((await recordAttempt(retried, { error: "no answer within 1000 ms", durationMs: 1_000 }, { schedule: SCHEDULE, now: second, random: HALF })).result).toBe("retrying");
  expect(await row(delivery.id)).toMatchObject({ attempts: 2, lastStatus: null, lastError: "no answer within 1000 ms", nextAttemptAt: new Date(second.getTime() + 60_000) });
  expect((await endpointRow(delivery.endpointId)).failingSince).toEqual(first);

  const third = new Date(second.getTime() + 60_000);
  const last = await again(retried, third);
  expect(await recordAttempt(last, { status: 502, error: "the endpoint answered 502", durationMs: 3 }, { schedule: SCHEDULE, now: third })).toEqual({ result: "failed", recorded: true, nextAttemptAt: null });
  expect(await row(delivery.id)).toMatchObject({ status: "failed", attempts: 3, lastStatus: 502, nextAttemptAt: null });
  expect((await endpointRow(delivery.endpointId)).enabled).toBe(true);
});

it("waits as long as Retry-After asks", async () => {
  const delivery = await claimed();
  const now = new Date();
  const recorded = await recordAttempt(delivery, { status: 429, retryAfterMs: 30_000, durationMs: 3 }, { schedule: SCHEDULE, now, random: HALF });
  expect(recorded.nextAttemptAt).toEqual(new Date(now.getTime() + 30_000));
});

it("fails the delivery and disables the endpoint on 410 Gone", async () => {
  const delivery = await claimed();
  const now = new Date();
  expect(await recordAttempt(delivery, { status: 410, error: "the endpoint answered 410", durationMs: 3 }, { schedule: SCHEDULE, now })).toEqual({
    result: "gone",
    recorded: true,
    nextAttemptAt: null,
    disabled: GONE_REASON,
  });
  expect(await row(delivery.id)).toMatchObject({ status: "failed", attempts: 1, lastStatus: 410 });
  expect(await endpointRow(delivery.endpointId)).toMatchObject({ enabled: false, disabledReason: "the endpoint answered 410 Gone", disabledAt: now });
});

it("disables an endpoint that has failed for 5 days at its next failure, and not before", async () => {
  const now = new Date();
  const fourDays = await claimed();
  await db().webhookEndpoint.update({ where: { id: fourDays.endpointId }, data: { failingSince: new Date(now.getTime() - FAILING_ENDPOINT_MS + 60_000) } });
  expect((await recordAttempt(fourDays, { status: 500, durationMs: 3 }, { schedule: SCHEDULE, now })).disabled).toBeUndefined();
  expect((await endpointRow(fourDays.endpointId)).enabled).toBe(true);
  await db().webhookEndpoint.deleteMany();

  const fiveDays = await claimed();
  await db().webhookEndpoint.update({ where: { id: fiveDays.endpointId }, data: { failingSince: new Date(now.getTime() - FAILING_ENDPOINT_MS - 60_000) } });
  expect(await recordAttempt(fiveDays, { refused: true, error: "refused: …", durationMs: 0 }, { schedule: SCHEDULE, now, random: HALF })).toMatchObject({ result: "refused", disabled: FAILING_REASON });
  expect(await endpointRow(fiveDays.endpointId)).toMatchObject({ enabled: false, disabledReason: FAILING_REASON, disabledAt: now });
  // The delivery itself keeps its place: it goes out if an owner enables the endpoint again.
  expect(await row(fiveDays.id)).toMatchObject({ status: "pending", attempts: 1 });
});

it("does not count a failure of our own against the endpoint", async () => {
  const delivery = await claimed();
  const recorded = await recordAttempt(delivery, { error: "the endpoint's secret cannot be read", durationMs: 0 }, { schedule: SCHEDULE, blameEndpoint: false });
  expect(recorded.result).toBe("retrying");
  expect((await endpointRow(delivery.endpointId)).failingSince).toBeNull();
});

it("writes nothing for a claim that lapsed and was taken by another worker", async () => {
  const delivery = await claimed();
  const taken = await claimDueDeliveries(1, new Date(delivery.claimedUntil.getTime() + 1));
  expect(taken.ids).toEqual([delivery.id]);
  expect(await recordAttempt(delivery, { status: 200, durationMs: 3 }, { schedule: SCHEDULE })).toMatchObject({ recorded: false });
  expect(await row(delivery.id)).toMatchObject({ status: "pending", attempts: 0, claimedUntil: taken.until });
});

import { APP_ACTOR, type Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { db, Prisma } from "@/lib/db/client";
import { groupCommit } from "@/lib/db/group-commit";
import { enabledChanges, endpointRecord } from "@/lib/webhooks/endpoint-activity";
import { retryDelayMs } from "@/lib/webhooks/retry-delay";
import type { AttemptOutcome } from "@/lib/webhooks/send-webhook";

// What an attempt's outcome does to its delivery and its endpoint (issue 9):
// - 2xx: delivered; the endpoint's failure streak ends.
// - 410 Gone: the receiver says the endpoint is no more (as Svix and Stripe
//   read it): the delivery has failed, and the endpoint is disabled, so nothing
//   more is sent to it until an owner enables it again.
// - anything else (another status, no answer, a refused address): tried again
//   on the schedule, or failed once it is spent. The endpoint's streak starts
//   at its first failure; an endpoint that has failed for FAILING_ENDPOINT_MS
//   without a success is disabled, as Svix does after 5 days.
// The app disabling an endpoint is recorded as the app's doing (issue 22), in
// the transaction that disables it.

export const FAILING_ENDPOINT_MS = 5 * 24 * 60 * 60 * 1000;
export const GONE_REASON = "the endpoint answered 410 Gone";
export const FAILING_REASON = "deliveries to the endpoint failed for 5 days without one succeeding";

/** The outcome of an attempt, as plant_store_webhook_deliveries_total counts it. */
export type AttemptResult = "delivered" | "retrying" | "failed" | "gone" | "refused";

export type ClaimedDelivery = { id: string; endpointId: string; attempts: number; claimedUntil: Date };

export type Recorded = {
  result: AttemptResult;
  /** False when the claim had lapsed and another worker had taken the delivery: nothing was written. */
  recorded: boolean;
  /** When the next attempt is due, if there is one. */
  nextAttemptAt: Date | null;
  /** Why the endpoint was disabled by this attempt, if it was. */
  disabled?: string;
};

type RecordOptions = {
  schedule: readonly number[];
  now?: Date;
  random?: () => number;
  /** False for failures of our own (a secret that cannot be read): they do not count against the endpoint. */
  blameEndpoint?: boolean;
};

type Client = Prisma.TransactionClient;

// Each record is a few statements and, alone, a commit: on SQLite an fsync on
// the event loop, a millisecond that every request in flight waits out (the
// bench showed the worker's commits crowding out the API's under write load).
// Attempts that end together are recorded together, in one transaction, as
// plants are written (lib/db/group-commit.ts); a claim holds each of them
// meanwhile, so the order of their records does not matter.
const MAX_RECORDS_PER_TRANSACTION = 64;

type Pending = { delivery: ClaimedDelivery; outcome: AttemptOutcome; options: RecordOptions };

const recordTogether = groupCommit<Pending, Recorded>(async (batch) => {
  const results: PromiseSettledResult<Recorded>[] = [];
  await db().$transaction(async (tx) => {
    for (const { delivery, outcome, options } of batch) results.push({ status: "fulfilled", value: await recordWith(tx, delivery, outcome, options) });
  });
  return results;
}, MAX_RECORDS_PER_TRANSACTION);

/** Records an attempt's outcome (with others ending at the same moment, in one transaction). */
export function recordAttempt(delivery: ClaimedDelivery, outcome: AttemptOutcome, options: RecordOptions): Promise<Recorded> {
  return recordTogether({ delivery, outcome, options });
}

async function recordWith(
  client: Client,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  { schedule, now = new Date(), random, blameEndpoint = true }: RecordOptions,
): Promise<Recorded> {
  const attempts = delivery.attempts + 1;
  const status = outcome.status;
  const common = { attempts, lastAttemptAt: now, lastStatus: status ?? null, lastError: outcome.error ?? null, claimedUntil: null };

  if (status !== undefined && status >= 200 && status < 300) {
    const recorded = await updateClaimed(client, delivery, { ...common, lastError: null, status: "delivered", deliveredAt: now, nextAttemptAt: null });
    if (recorded) await client.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
    return { result: "delivered", recorded, nextAttemptAt: null };
  }

  if (status === 410) {
    const recorded = await updateClaimed(client, delivery, { ...common, status: "failed", nextAttemptAt: null });
    const disabled = recorded && (await disable(client, delivery.endpointId, GONE_REASON, now));
    return { result: "gone", recorded, nextAttemptAt: null, ...(disabled ? { disabled: GONE_REASON } : {}) };
  }

  const delay = retryDelayMs({ schedule, attempts, retryAfterMs: outcome.retryAfterMs, random });
  const nextAttemptAt = delay === null ? null : new Date(now.getTime() + delay);
  const recorded = await updateClaimed(client, delivery, { ...common, status: nextAttemptAt ? "pending" : "failed", nextAttemptAt });
  const result: AttemptResult = outcome.refused ? "refused" : nextAttemptAt ? "retrying" : "failed";
  if (!recorded || !blameEndpoint) return { result, recorded, nextAttemptAt };

  await client.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: null }, data: { failingSince: now } });
  const cutoff = new Date(now.getTime() - FAILING_ENDPOINT_MS);
  const { count } = await client.webhookEndpoint.updateMany({
    where: { id: delivery.endpointId, enabled: true, failingSince: { lte: cutoff } },
    data: { enabled: false, disabledReason: FAILING_REASON, disabledAt: now },
  });
  if (count > 0) await recordDisabled(client, delivery.endpointId, FAILING_REASON, now);
  return { result, recorded, nextAttemptAt, ...(count > 0 ? { disabled: FAILING_REASON } : {}) };
}

/** Marks a claimed delivery failed for good, without an attempt (its event is gone); false when the claim had lapsed. */
export async function abandonDelivery(delivery: ClaimedDelivery, reason: string, now = new Date()): Promise<boolean> {
  return updateClaimed(db(), delivery, { status: "failed", lastError: reason, nextAttemptAt: null, claimedUntil: null, lastAttemptAt: now });
}

// Only the claim's holder writes: if its claim lapsed and another worker took
// the delivery, that worker's record stands.
async function updateClaimed(client: Client, delivery: ClaimedDelivery, data: Prisma.WebhookDeliveryUpdateManyMutationInput): Promise<boolean> {
  const { count } = await client.webhookDelivery.updateMany({ where: { id: delivery.id, status: "pending", claimedUntil: delivery.claimedUntil }, data });
  return count > 0;
}

async function disable(client: Client, endpointId: string, reason: string, now: Date): Promise<boolean> {
  const { count } = await client.webhookEndpoint.updateMany({ where: { id: endpointId, enabled: true }, data: { enabled: false, disabledReason: reason, disabledAt: now } });
  if (count > 0) await recordDisabled(client, endpointId, reason, now);
  return count > 0;
}

const BY_APP: Attribution = { actor: APP_ACTOR, origin: null };

// Only an enabled endpoint is disabled here, and an enabled endpoint has no
// disabled reason (enabling clears it), so what it was needs no read.
function recordDisabled(client: Client, endpointId: string, reason: string, now: Date): Promise<void> {
  const changes = enabledChanges({ enabled: true, disabledReason: null }, { enabled: false, disabledReason: reason });
  return recordActivity(client, [endpointRecord("webhook.disabled", endpointId, changes, BY_APP)], now);
}

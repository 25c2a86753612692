import { db, type WebhookEndpoint, type WebhookEvent } from "@/lib/db/client";
import { databaseOutage } from "@/lib/db/database-outage";
import { eventBody } from "@/lib/json/event-body";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";
import { claimDueDeliveries, type Claim, releaseClaims } from "@/lib/webhooks/delivery-claims";
import { UnreadableSecretError, openEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { signingSecrets } from "@/lib/webhooks/endpoints";
import { abandonDelivery, type ClaimedDelivery, recordAttempt } from "@/lib/webhooks/record-attempt";
import { sendWebhook } from "@/lib/webhooks/send-webhook";
import { onWebhookWorkerWake } from "@/lib/webhooks/worker-signal";

// The delivery worker (issue 9): claims due deliveries (lib/webhooks/delivery-claims.ts),
// sends each (lib/webhooks/send-webhook.ts), a few at a time, and records what
// came of it (lib/webhooks/record-attempt.ts). It runs in the server by default
// (WEBHOOK_WORKER) and as `npm run worker`; any number may run on one
// PostgreSQL database. It is woken in this process when something was committed
// that makes deliveries (lib/webhooks/worker-signal.ts) and polls for the rest:
// other processes' commits, and retries coming due.

export type WebhookWorker = {
  /**
   * Stops claiming, waits up to `waitMs` for the attempts in flight, then cuts
   * those still running short and gives their deliveries back unsent, as it
   * does those claimed but not yet started.
   */
  stop(waitMs?: number): Promise<void>;
};

export type WorkerOptions = {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** How often to look for due deliveries when nothing wakes the worker. */
  pollMs?: number;
};

/** Attempts in flight at once, by default: enough that slow receivers do not hold up the rest. */
export const DEFAULT_CONCURRENCY = 32;
const DEFAULT_POLL_MS = 1_000;
const DEFAULT_STOP_WAIT_MS = 10_000;
const NUDGE_INTERVAL_MS = 50;

type Attempt = { controller: AbortController; done: Promise<void> };

export function startWebhookWorker({ concurrency = DEFAULT_CONCURRENCY, pollMs = DEFAULT_POLL_MS }: WorkerOptions = {}): WebhookWorker {
  const config = env().webhooks;
  const inFlight = new Set<Attempt>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  let ticking: Promise<void> | undefined;
  let again = false;
  let lastLook = 0;
  let nudged: NodeJS.Timeout | undefined;
  let failing = false;

  // One look at a time; a call during a look asks for another after it.
  function tick(): void {
    if (stopping) return;
    if (ticking) {
      again = true;
      return;
    }
    lastLook = Date.now();
    ticking = look().finally(() => {
      ticking = undefined;
      if (again) {
        again = false;
        tick();
      }
    });
  }

  // Plant writes nudge the worker after every group commit: under write load,
  // hundreds of times a second. At most one look per NUDGE_INTERVAL_MS comes
  // of them, so the worker adds a few queries a second to that load, not one
  // per batch, and a delivery still leaves within that interval.
  function nudge(): void {
    if (stopping || nudged) return;
    const wait = lastLook + NUDGE_INTERVAL_MS - Date.now();
    if (wait <= 0) return tick();
    nudged = setTimeout(() => {
      nudged = undefined;
      tick();
    }, wait);
  }

  async function look(): Promise<void> {
    try {
      const free = concurrency - inFlight.size;
      if (free <= 0) return;
      const claim = await claimDueDeliveries(free);
      if (claim.ids.length > 0) await start(claim);
      // A full claim suggests more are due; the slots free up as attempts end, and each end looks again.
      if (claim.ids.length === free && inFlight.size < concurrency) again = true;
      if (failing) log.info("webhook worker: the database answers again");
      failing = false;
    } catch (error) {
      // Once per streak: a database that is down would otherwise log every poll.
      if (!failing) logFailure("webhook worker: claiming deliveries failed; trying again at the next poll", error);
      failing = true;
    }
  }

  /** Starts an attempt for each claimed delivery; gives them back if the worker is stopping. */
  async function start(claim: Claim): Promise<void> {
    if (stopping) return releaseClaims(claim.ids, claim.until);
    const deliveries = await db().webhookDelivery.findMany({ where: { id: { in: claim.ids } } });
    const [events, endpoints] = await Promise.all([
      db().webhookEvent.findMany({ where: { id: { in: [...new Set(deliveries.map((each) => each.eventId))] } } }),
      db().webhookEndpoint.findMany({ where: { id: { in: [...new Set(deliveries.map((each) => each.endpointId))] } } }),
    ]);
    if (stopping) return releaseClaims(claim.ids, claim.until);
    const eventById = new Map(events.map((event) => [event.id, event]));
    const endpointById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    // A claimed delivery that is not found was deleted with its endpoint meanwhile: nothing to send.
    for (const row of deliveries) {
      const delivery: ClaimedDelivery = { id: row.id, endpointId: row.endpointId, attempts: row.attempts, claimedUntil: claim.until };
      const controller = new AbortController();
      const attempt: Attempt = { controller, done: Promise.resolve() };
      inFlight.add(attempt);
      attempt.done = run(delivery, eventById.get(row.eventId), endpointById.get(row.endpointId), controller.signal)
        .catch((error: unknown) => logFailure("webhook worker: an attempt failed unexpectedly; its claim will lapse", error, { deliveryId: delivery.id }))
        .finally(() => {
          inFlight.delete(attempt);
          tick();
        });
    }
  }

  async function run(delivery: ClaimedDelivery, event: WebhookEvent | undefined, endpoint: WebhookEndpoint | undefined, signal: AbortSignal): Promise<void> {
    // The rows of a SQLite file edited with foreign keys off: there is nothing to send.
    if (!event || !endpoint) {
      const reason = event ? "the endpoint no longer exists" : "the event no longer exists";
      await abandonDelivery(delivery, reason);
      log.warn("webhook delivery abandoned", { deliveryId: delivery.id, reason });
      metrics().webhookDeliveries.inc({ outcome: "failed" });
      return;
    }
    // Disabled since the claim (an owner, a 410 on another delivery): nothing more goes to it.
    // And a process that stalled since it claimed could overrun its claim, and
    // another worker may then send this very attempt: leave it to them.
    if (!endpoint.enabled || Date.now() + config.timeoutMs > delivery.claimedUntil.getTime()) {
      await releaseClaims([delivery.id], delivery.claimedUntil);
      return;
    }
    const secrets = readSecrets(endpoint);
    const outcome =
      typeof secrets === "string"
        ? { error: secrets, durationMs: 0 }
        : await sendWebhook(
            { url: endpoint.url, eventId: event.id, body: eventBody(event), secrets },
            { timeoutMs: config.timeoutMs, allowPrivateTargets: config.allowPrivateTargets, signal },
          );
    // Cut short by stop(): not an attempt the receiver answered; it goes back for another worker.
    if (signal.aborted && outcome.status === undefined) {
      await releaseClaims([delivery.id], delivery.claimedUntil);
      return;
    }
    const recorded = await recordAttempt(delivery, outcome, { schedule: config.retryScheduleMs, blameEndpoint: typeof secrets !== "string" });
    metrics().webhookDeliveries.inc({ outcome: recorded.result });
    const fields = {
      deliveryId: delivery.id,
      eventId: event.id,
      endpointId: endpoint.id,
      attempt: delivery.attempts + 1,
      outcome: recorded.result,
      status: outcome.status,
      durationMs: outcome.durationMs,
      ...(outcome.error ? { detail: outcome.error } : {}),
      ...(recorded.nextAttemptAt ? { nextAttemptAt: recorded.nextAttemptAt.toISOString() } : {}),
    };
    if (!recorded.recorded) log.warn("webhook attempt not recorded: its claim lapsed and another worker took the delivery", fields);
    else log.info("webhook attempt", fields);
    if (recorded.disabled) log.warn("webhook endpoint disabled", { endpointId: endpoint.id, reason: recorded.disabled });
    if (recorded.nextAttemptAt) wakeAt(recorded.nextAttemptAt);
  }

  // A retry due before the next poll (short schedules) is looked for when it is due.
  function wakeAt(at: Date): void {
    const delay = at.getTime() - Date.now();
    if (delay >= pollMs || stopping) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      tick();
    }, Math.max(0, delay) + 5);
    timers.add(timer);
  }

  const poll = setInterval(tick, pollMs);
  const unsubscribe = onWebhookWorkerWake(nudge);
  log.info("webhook worker started", { concurrency, pollMs, timeoutMs: config.timeoutMs });
  tick();

  return {
    async stop(waitMs = DEFAULT_STOP_WAIT_MS) {
      if (stopping) return;
      stopping = true;
      clearInterval(poll);
      unsubscribe();
      clearTimeout(nudged);
      for (const timer of timers) clearTimeout(timer);
      await ticking;
      const finished = Promise.all([...inFlight].map((attempt) => attempt.done));
      let deadline: NodeJS.Timeout | undefined;
      const late = await Promise.race([finished.then(() => false), new Promise<boolean>((resolve) => (deadline = setTimeout(() => resolve(true), waitMs)))]);
      clearTimeout(deadline);
      if (late) {
        log.warn("webhook worker: attempts still running at stop; cutting them short", { attempts: inFlight.size });
        for (const attempt of inFlight) attempt.controller.abort();
        await Promise.all([...inFlight].map((attempt) => attempt.done));
      }
      log.info("webhook worker stopped");
    },
  };
}

/** A database that cannot be used just now (issue 20) is the database's trouble, and a warning; anything else is a fault. */
function logFailure(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  (databaseOutage(error) ? log.warn : log.error)(message, { ...fields, ...describeError(error) });
}

/** The secrets that sign for the endpoint now, or why there are none. */
function readSecrets(endpoint: WebhookEndpoint): string[] | string {
  try {
    return signingSecrets(endpoint);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    // A rotated-out secret that cannot be read must not stop the current one from signing.
    try {
      return [openEndpointSecret(endpoint.secret)];
    } catch (current) {
      return current instanceof Error ? current.message : String(current);
    }
  }
}

import { setTimeout as sleep } from "node:timers/promises";
import type { ActivityAction } from "@/lib/activity/record";
import { db, Prisma } from "@/lib/db/client";
import { type BackgroundJob, startBackgroundJob } from "@/lib/server/background-job";
import { type Env, env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";

// Keeping the activity record (issue 22): the server removes records older
// than ACTIVITY_RETENTION, and sign-ins older than ACTIVITY_SIGN_IN_RETENTION,
// in the background: shortly after it starts, then hourly.
//
// In steps that no request waits long for. Each step is one DELETE of at most
// STEP_ROWS rows, its own short transaction, with a pause after it. On SQLite
// every write holds the one writer lock (and runs on the event loop): a step
// of 250 rows measured 6-35 ms on a loaded machine where one plant's commit
// took 4-18 ms; the fsync of the commit is most of either.
// On PostgreSQL a step locks only the rows it removes, which no request
// touches (records are never changed); several instances may prune at once,
// and SKIP LOCKED has each take rows the others have not, so none waits for
// another and none removes a row twice.
//
// The oldest records are found in the primary key's order, not by a scan of
// occurred_at (which has no index: every index costs each change): ids count
// up as records are written, so the oldest have the smallest. A step looks at
// the STEP_ROWS smallest ids and removes those among them that are older than
// the cutoff; the run ends at the first step that removes none. So a record
// whose time is out of order with its ids (a clock stepped back; a commit
// that took seconds) is removed with its neighbours, a little late, never
// early: every row is judged by its own occurred_at.
//
// Sign-ins lie among records that are kept longer, where the id's order does
// not lead to them; a partial index holds the sign-ins alone by occurred_at
// (migration 20261127120000_activity_sign_in_index).

export type RetentionPolicy = Env["activityRetention"];

/** Rows one step removes at most. */
export const STEP_ROWS = 250;
const PAUSE_MS = 100;
const FIRST_RUN_MS = 60_000;
const INTERVAL_MS = 3_600_000;

const SIGN_IN_ACTIONS = ["sign_in.succeeded", "sign_in.failed"] as const satisfies readonly ActivityAction[];
// In literals, as the partial index's WHERE has them: SQLite uses a partial index only for a query whose WHERE holds the same term.
const SIGN_INS = Prisma.raw(`"action" IN (${SIGN_IN_ACTIONS.map((action) => `'${action}'`).join(", ")})`);

// PostgreSQL: rows another instance's step holds are left to it.
const skipLocked = () => (env().database.provider === "postgresql" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty);

/** One step: removes those of the `rows` oldest records (by id) that occurred before `before`. */
export function oldRecordsStep(before: Date, rows: number): Prisma.Sql {
  return Prisma.sql`DELETE FROM "activity" WHERE "occurred_at" < ${before} AND "id" IN (SELECT "id" FROM "activity" ORDER BY "id" LIMIT ${rows} ${skipLocked()})`;
}

/** One step: removes up to `rows` sign-in records that occurred before `before`. */
export function oldSignInsStep(before: Date, rows: number): Prisma.Sql {
  return Prisma.sql`DELETE FROM "activity" WHERE "id" IN (SELECT "id" FROM "activity" WHERE ${SIGN_INS} AND "occurred_at" < ${before} LIMIT ${rows} ${skipLocked()})`;
}

export type PruneOptions = {
  /** The time the periods count back from. */
  now?: Date;
  stepRows?: number;
  pauseMs?: number;
  /** Ends the run after the step under way. */
  signal?: AbortSignal;
  /** Called after each step has committed, with the rows it removed (the tests watch the steps). */
  onStep?: (removed: number) => void | Promise<void>;
};

/** How many records a run removed: those older than ACTIVITY_RETENTION, and the sign-ins older than ACTIVITY_SIGN_IN_RETENTION. */
export type Pruned = { records: number; signIns: number };

/** Removes the records `policy` keeps no longer, step by step; answers how many. */
export async function pruneActivity(policy: RetentionPolicy, options: PruneOptions = {}): Promise<Pruned> {
  const now = (options.now ?? new Date()).getTime();
  const rows = options.stepRows ?? STEP_ROWS;
  const { recordsMs, signInsMs } = policy;
  const pruned: Pruned = { records: 0, signIns: 0 };
  if (recordsMs !== null) pruned.records = await inSteps(() => oldRecordsStep(new Date(now - recordsMs), rows), options);
  // A period as long as the records' has nothing left to remove.
  if (signInsMs !== null && signInsMs !== recordsMs) pruned.signIns = await inSteps(() => oldSignInsStep(new Date(now - signInsMs), rows), options);
  return pruned;
}

async function inSteps(step: () => Prisma.Sql, { pauseMs = PAUSE_MS, signal, onStep }: PruneOptions): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const removed = await db().$executeRaw(step());
    await onStep?.(removed);
    total += removed;
    if (removed === 0) break;
    if (pauseMs > 0) await sleep(pauseMs, undefined, { signal }).catch(() => undefined);
  }
  return total;
}

export type ActivityRetention = BackgroundJob;

/**
 * Prunes the activity record in this process: a minute after start (not
 * during it), then every hour, one run at a time. Nothing to start when every
 * record is kept forever.
 */
export function startActivityRetention(
  policy: RetentionPolicy = env().activityRetention,
  { firstRunMs = FIRST_RUN_MS, intervalMs = INTERVAL_MS }: { firstRunMs?: number; intervalMs?: number } = {},
): ActivityRetention | undefined {
  if (policy.recordsMs === null && policy.signInsMs === null) return undefined;
  return startBackgroundJob({
    firstRunMs,
    intervalMs,
    async run(signal) {
      const started = performance.now();
      try {
        const { records, signIns } = await pruneActivity(policy, { signal });
        // How many, never what: the records are the store's, not the log's.
        if (records + signIns > 0) log.info("old activity records removed", { records, signIns, durationMs: Math.round(performance.now() - started) });
      } catch (error) {
        log.warn("removing old activity records failed; the next run tries again", describeError(error));
      }
    },
  });
}

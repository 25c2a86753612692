import { setTimeout as sleep } from "node:timers/promises";
import { db, Prisma } from "@/lib/db/client";
import { stampChanges } from "@/lib/live/change-stamps";
import { type BackgroundJob, startBackgroundJob } from "@/lib/server/background-job";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";

// Keeping the change feed (issue 32): changes older than
// CHANGE_FEED_RETENTION are removed in the background, shortly after the
// server starts and then hourly, in short steps (one writer at a time on
// SQLite). The newest change is always kept, whatever its age: the next
// position is counted from it (migration 20261129000000_plant_changes), and
// a client at the newest position can still resume. A client whose position
// was removed is answered 410 (lib/live/follow-changes.ts).

const STEP_ROWS = 500;
const PAUSE_MS = 100;
const FIRST_RUN_MS = 60_000;
const INTERVAL_MS = 3_600_000;

/** One step: the oldest `rows` changes (by position) that are older than `before` and not the newest. */
function oldChangesStep(before: Date, rows: number): Prisma.Sql {
  // SQLite keeps the time as the trigger wrote it (ISO 8601 with +00:00), compared as text; PostgreSQL as a timestamp.
  const cutoff = env().database.provider === "sqlite" ? before.toISOString().replace("Z", "+00:00") : before;
  return Prisma.sql`DELETE FROM "plant_changes" WHERE "seq" IN (
    SELECT "seq" FROM "plant_changes"
    WHERE "position" IS NOT NULL AND "occurred_at" < ${cutoff} AND "position" < (SELECT max("position") FROM "plant_changes")
    ORDER BY "position" LIMIT ${rows})`;
}

/** Removes the changes kept no longer, step by step; answers how many. */
export async function pruneChanges(retentionMs: number, { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {}): Promise<number> {
  const before = new Date(now.getTime() - retentionMs);
  // PostgreSQL: changes are stamped by the instances that hold streams; where none ever did, they are
  // stamped here, or they would never be old enough to remove (only stamped changes are).
  const database = env().database;
  if (database.provider === "postgresql") await stampChanges((await import("@/lib/db/postgres")).postgresPool(database.url));
  let total = 0;
  while (!signal?.aborted) {
    const removed = await db().$executeRaw(oldChangesStep(before, STEP_ROWS));
    total += removed;
    if (removed < STEP_ROWS) break;
    await sleep(PAUSE_MS, undefined, { signal }).catch(() => undefined);
  }
  return total;
}

/** Prunes the change feed in this process, a minute after start, then hourly; nothing when changes are kept forever. */
export function startChangeRetention(retentionMs: number | null = env().changeFeed.retentionMs): BackgroundJob | undefined {
  if (retentionMs === null) return undefined;
  return startBackgroundJob({
    firstRunMs: FIRST_RUN_MS,
    intervalMs: INTERVAL_MS,
    async run(signal) {
      try {
        const removed = await pruneChanges(retentionMs, { signal });
        if (removed > 0) log.info("old changes removed from the change feed", { removed });
      } catch (error) {
        log.warn("removing old changes from the change feed failed; the next run tries again", describeError(error));
      }
    },
  });
}

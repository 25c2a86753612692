import { ACTIVITY_READ_PAGE, type ActivityNote, activityAfter, newestActivityPosition } from "@/lib/live/activity-reads";
import { changeTail } from "@/lib/live/change-tail";
import type { Feed } from "@/lib/live/event-stream";
import { recentItems, sharedReads } from "@/lib/live/recent-items";
import { existingProcessGlobal, processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

/** The newest records kept in memory for streams that fall behind or reconnect (lib/live/recent-items.ts). */
const RECENT_NOTES = 1_024;

// The process's one reader of the activity record, for the Activity and Team
// pages' streams (issue 32). It is woken as the change feed is, and reads on
// the change feed's reader's turn (lib/live/change-tail.ts alsoRead): by this
// process's writes, the other workers' word, PostgreSQL's NOTIFY
// (activity_recorded, migration 20261129120000_activity_notify) and the look
// on a timer that catches a CLI's or another instance's writes.
//
// Positions are the records' ids. SQLite gives them in commit order. On
// PostgreSQL two transactions may commit in the other order of their ids, and
// a record committed just after a higher one was read is not handed out: the
// pages' notices may then count one record short, which the next reading of
// the page shows. The API's change feed, which a client resumes from, has
// positions stamped in commit order for that reason; these only tell a page
// that it is behind.

export type ActivityTail = Feed<ActivityNote>;

export function activityTail(): Promise<ActivityTail> {
  const starting = processGlobal("live.activity", () => startTail());
  // As the change feed's: a start the database refused is tried again by the next stream.
  starting.catch(() => existingProcessGlobal("live.activity") === starting && takeProcessGlobal("live.activity"));
  return starting;
}

/** Stops the reader, if it runs (at shutdown, with the change feed's). */
export async function stopActivityTail(): Promise<void> {
  const tail = await takeProcessGlobal<Promise<ActivityTail & { stop(): void }>>("live.activity")?.catch(() => undefined);
  tail?.stop();
}

async function startTail(): Promise<ActivityTail & { stop(): void }> {
  const changes = await changeTail();
  let position = BigInt(await newestActivityPosition());
  const listeners = new Set<(notes: readonly ActivityNote[]) => void>();
  const recent = recentItems<ActivityNote>(RECENT_NOTES);
  const fromTable = sharedReads((after) => activityAfter(after, ACTIVITY_READ_PAGE));
  // Read on every wake, streams or none, so that the position stays the newest (a page's, a stream's start, is compared with it).
  const stop = changes.alsoRead(async () => {
    for (;;) {
      const notes = await activityAfter(position, ACTIVITY_READ_PAGE);
      if (notes.length === 0) return;
      recent.add(position, notes);
      position = notes.at(-1)!.position;
      for (const listener of listeners) listener(notes);
      if (notes.length < ACTIVITY_READ_PAGE) return;
    }
  });
  return {
    get position() {
      return position;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readAfter: async (after, limit) => recent.after(after, Math.min(limit, ACTIVITY_READ_PAGE)) ?? fromTable(after),
    stop,
  };
}

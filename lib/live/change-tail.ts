import { ACTIVITY_CHANNEL } from "@/lib/live/activity-reads";
import { changesAfter, keptPositions, READ_PAGE } from "@/lib/live/change-reads";
import { onPlantChangesAnnounced } from "@/lib/live/change-signal";
import { STAMPED_CHANNEL, stampChanges, WRITTEN_CHANNEL } from "@/lib/live/change-stamps";
import { onOtherWorkersChanges, tellOtherWorkers } from "@/lib/live/cluster-wake";
import type { Feed } from "@/lib/live/event-stream";
import type { PlantChange } from "@/lib/live/plant-change";
import { recentItems, sharedReads } from "@/lib/live/recent-items";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { existingProcessGlobal, processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

// The one reader of the change feed in a process: it reads the table once for
// every stream the process holds, and hands each batch to all of them, so ten
// thousand streams cost one read per change, not ten thousand.
//
// It reads when woken, and on a timer:
// - this process committed plants (lib/live/change-signal.ts);
// - SQLite: another worker did (through the primary, lib/live/cluster-wake.ts);
//   and every LOOK_MS, for anyone else (a CLI, another instance on the same
//   file): a look costs a PRAGMA data_version while nothing changed;
// - PostgreSQL: NOTIFY from any instance (lib/live/postgres-listener.ts); the
//   changes are stamped first (lib/live/change-stamps.ts), by whoever comes
//   first; and every LOOK_MS, so a notification lost with its connection
//   delays a change, never loses it.
// Notifications only wake it: what it hands out is always what it read.
// Streams that fall behind, and clients that reconnect, read the newest
// changes from what it keeps of them, older ones from the table.

export type ChangeBatchListener = (changes: readonly PlantChange[]) => void;

/** How often the feed looks without being woken: SQLite's look costs a few µs; PostgreSQL's a stamp and a read. */
const SQLITE_LOOK_MS = 250;
const POSTGRES_LOOK_MS = 2_000;
/**
 * The least time between two batches handed to the streams: changes committed meanwhile wait and go
 * out together. Each batch costs every stream a write (a system call, and the client's read), so at
 * 50 creates a second to 10,000 streams, one batch per create is half a million writes a second, more
 * than two cores can make and read; a batch at most every BATCH_MS is a tenth of it, for at most
 * BATCH_MS of delay (none for a change that comes after a quiet moment). Measured with npm run bench:live.
 */
const BATCH_MS = 100;
/** The newest changes kept in memory for streams that fall behind or reconnect (lib/live/recent-items.ts): eight pages, a few MB. */
const RECENT_CHANGES = 8 * READ_PAGE;

export type ChangeTail = Feed<PlantChange> & {
  /** Reads now (and again, if woken while reading). */
  wake(): void;
  /**
   * Has `reader` called after each read of the changes, woken as they are:
   * the Activity page's feed (lib/live/activity-tail.ts) reads its own table
   * on the same wakes. Answers the function that stops it.
   */
  alsoRead(reader: () => Promise<void>): () => void;
  stop(): Promise<void>;
};

/** The process's feed, started on first use: at the newest position, since no stream can ask it for older ones. */
export function changeTail(): Promise<ChangeTail> {
  const starting = processGlobal("live.tail", () => startTail());
  // A start the database refused (an outage) is not kept: the next stream starts the feed again.
  starting.catch(() => existingProcessGlobal("live.tail") === starting && takeProcessGlobal("live.tail"));
  return starting;
}

/** Stops the process's feed, if it runs (at shutdown). */
export async function stopChangeTail(): Promise<void> {
  await (await takeProcessGlobal<Promise<ChangeTail>>("live.tail"))?.stop();
}

async function startTail(): Promise<ChangeTail> {
  const database = env().database;
  const postgres = database.provider === "postgresql" ? await import("@/lib/db/postgres") : undefined;
  const pool = postgres && database.provider === "postgresql" ? postgres.postgresPool(database.url) : undefined;
  if (pool) await stampChanges(pool);
  let position = (await keptPositions())?.newest ?? 0n;
  const listeners = new Set<ChangeBatchListener>();
  const recent = recentItems<PlantChange>(RECENT_CHANGES);
  const fromTable = sharedReads((after) => changesAfter(after, READ_PAGE));
  const readers = new Set<() => Promise<void>>();
  let reading = false;
  let again = false;
  let stopped = false;
  let stamp = false;

  async function read(): Promise<void> {
    if (pool && stamp) {
      stamp = false;
      await stampChanges(pool);
    }
    await readChanges();
    for (const reader of readers) await reader();
  }

  // When the last batch was handed out (performance.now()).
  let handedAt = Number.NEGATIVE_INFINITY;
  async function readChanges(): Promise<void> {
    const rest = handedAt + BATCH_MS - performance.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    for (;;) {
      const changes = await changesAfter(position, READ_PAGE);
      if (changes.length === 0 || stopped) return;
      recent.add(position, changes);
      position = changes.at(-1)!.position;
      handedAt = performance.now();
      for (const listener of listeners) listener(changes);
      if (changes.length < READ_PAGE) return;
    }
  }

  /** Reads; one read at a time, and one more after it for whatever woke it meanwhile. `stampFirst`: PostgreSQL changes may await their positions. */
  function wake(stampFirst = false): void {
    if (stampFirst) stamp = true;
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void (async () => {
      do {
        again = false;
        try {
          await read();
        } catch (error) {
          // An outage, a busy database: the next wake or look reads again, from the same position.
          log.warn("the live updates could not read the changes; trying again", describeError(error));
        }
      } while (again && !stopped);
      reading = false;
    })();
  }

  const stops: (() => unknown)[] = [];
  // The writes of one turn of the event loop (a group commit's creates, say) are told, and read, once.
  let announced = false;
  stops.push(
    onPlantChangesAnnounced(() => {
      if (announced) return;
      announced = true;
      setImmediate(() => {
        announced = false;
        tellOtherWorkers();
        wake(true);
      });
    }),
  );
  if (pool && database.provider === "postgresql") {
    const { listenPostgres } = await import("@/lib/live/postgres-listener");
    const listener = listenPostgres({
      url: database.url,
      channels: [WRITTEN_CHANNEL, STAMPED_CHANNEL, ACTIVITY_CHANNEL],
      onNotification: (channel) => wake(channel === WRITTEN_CHANNEL),
      onListening: () => wake(true),
    });
    stops.push(() => listener.close());
  } else {
    stops.push(onOtherWorkersChanges(() => wake()));
  }
  const look = setInterval(() => wake(true), pool ? POSTGRES_LOOK_MS : SQLITE_LOOK_MS);
  look.unref();
  stops.push(() => clearInterval(look));

  return {
    get position() {
      return position;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readAfter: async (after, limit) => recent.after(after, Math.min(limit, READ_PAGE)) ?? fromTable(after),
    wake: () => wake(true),
    alsoRead(reader) {
      readers.add(reader);
      return () => readers.delete(reader);
    },
    async stop() {
      stopped = true;
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}

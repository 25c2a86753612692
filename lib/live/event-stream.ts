import { processGlobal } from "@/lib/server/process-global";

// One client's stream (issue 32), as Server-Sent Events: every item of a feed
// after its start position that the stream accepts, in order, none twice,
// then live ones as the process's feed reads them. The API's change feed
// (lib/live/change-tail.ts) and the Activity page's (lib/live/activity-tail.ts)
// are both sent this way.
//
// A stream is either live, writing each batch the feed hands it, or behind,
// reading the feed itself (its memory of the newest items, else the table),
// MAX_QUEUED_EVENTS at a time as its connection takes them:
// it starts behind (from its start position up to the feed's), and falls
// behind again whenever more than MAX_QUEUED_EVENTS wait for its connection
// (a batch import hands a stream hundreds of changes at once). It goes live
// again once it has read up to the feed's position, in the same turn of the
// event loop as it checks it, so the feed can hand nothing in between: no
// change is missed where the two meet, and none is sent twice, since the
// stream passes over anything at or before the last position it sent. So a
// reader that is slow is served at its own pace, and at most MAX_QUEUED_EVENTS
// wait for any connection.
//
// A connection that takes nothing at all for STALL_BEATS heartbeats while
// events wait for it is cut: its client (or a proxy between) has stopped
// reading. A client that comes back resumes with its Last-Event-ID.

/** What the client waits before reconnecting, in ms (the `retry:` field). */
export const RETRY_MS = 2_000;
/** A comment at least this often keeps proxies and load balancers from closing an idle stream (issue 32: at least every 15 s). */
export const HEARTBEAT_MS = 10_000;
/**
 * Events written but not yet taken by the connection, past which the stream falls behind and reads the
 * table at the connection's pace. Each costs a stream a place in its queue (the bytes are shared): with
 * thousands of slow streams, a worker's heap.
 */
export const MAX_QUEUED_EVENTS = 64;
/** Heartbeats in a row at which a connection has taken nothing since the one before while events wait for it, at which it is cut: after 20 to 30 s. */
export const STALL_BEATS = 2;
/** Chunks the connection may be behind before the stream waits for it, when it reads the table. */
const QUEUE_ROOM = 16;

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(": keep-alive\n\n");

/** An item of a feed: its position grows with each item, in the order the feed hands them out. */
export type Positioned = { readonly position: bigint };

/** What streams follow: a process's one reader of a table, handing each batch it reads to every stream. */
export type Feed<Item extends Positioned> = {
  /** The position read up to: every item after it reaches the listeners, in order. */
  readonly position: bigint;
  /** Adds a listener; it is called, synchronously with the position's advance, with each batch read after it. */
  subscribe(listener: (items: readonly Item[]) => void): () => void;
  /** The items after `position`, in order: a page of them, of about `limit` when the feed has them in memory (a stream's backlog, read at the client's pace). */
  readAfter(position: bigint, limit: number): Promise<readonly Item[]>;
};

// The same bytes for every stream an item is sent on: encoded once per process.
const frames = new WeakMap<Positioned, Uint8Array>();

function encoded(item: Positioned, frame: (item: never) => string): Uint8Array {
  let bytes = frames.get(item);
  if (!bytes) {
    bytes = encoder.encode(frame(item as never));
    frames.set(item, bytes);
  }
  return bytes;
}

/** An event's frame: `id:` its position, `event:` its type, `data:` one line of JSON. */
export function eventFrame(position: bigint, type: string, data: string): string {
  return `id: ${position}\nevent: ${type}\ndata: ${data}\n\n`;
}

/** Why a stream ended: its client went away, it stopped reading, its access ended, the process stops, or reading the table failed. */
export type EndReason = "client" | "stalled" | "access" | "shutdown" | "failed";

type OpenStream = { beat(): void; end(reason: EndReason): void };

type OpenStreams = { streams: Set<OpenStream>; beating: NodeJS.Timeout | undefined };

/**
 * The process's open streams: one timer beats for all of them, and a shutdown
 * ends them all. Per process, not per module copy: the server (lib/server/direct-streams.ts)
 * and Next's bundle each load this module.
 */
function openStreams(): OpenStreams {
  return processGlobal("live.open", () => ({ streams: new Set(), beating: undefined }));
}

/** Holds `stream` open: it is sent the heartbeat, which beats while any stream is open. */
function holdOpen(stream: OpenStream): void {
  const state = openStreams();
  state.streams.add(stream);
  state.beating ??= setInterval(() => {
    for (const held of state.streams) held.beat();
  }, HEARTBEAT_MS).unref();
}

/** Lets `stream` go; the last one stops the heartbeat. */
function letGo(stream: OpenStream): void {
  const state = openStreams();
  state.streams.delete(stream);
  if (state.streams.size > 0) return;
  clearInterval(state.beating);
  state.beating = undefined;
}

/** Ends every open stream (at shutdown): each client reconnects, to another process, after `retry`. */
export function endAllStreams(): void {
  for (const stream of [...openStreams().streams]) stream.end("shutdown");
}

export type StreamOptions<Item extends Positioned> = {
  /** Items after this position are sent. */
  start: bigint;
  /** Whether this stream is sent `item` (its filters). */
  accepts(item: Item): boolean;
  /** The item's event, the same text for every stream (lib/live/event-stream.ts eventFrame): encoded once. */
  frame(item: Item): string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** Called once, when the stream has ended, with why. */
  onEnd(reason: EndReason): void;
};

export type EventStream = { body: ReadableStream<Uint8Array>; end(reason: EndReason): void };

export function eventStream<Item extends Positioned>(feed: Feed<Item>, { start, accepts, frame, signal, onEnd }: StreamOptions<Item>): EventStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let live = false;
  let sent = start;
  let unsubscribe: () => void = () => {};
  // Resolved when the connection has taken what was queued (pull), so the table is read at the client's pace.
  let room: (() => void) | undefined;
  // Whether the connection has taken anything since the last heartbeat, and for how many beats it has not while events waited.
  let took = true;
  let stalledBeats = 0;

  const waiting = () => QUEUE_ROOM - (controller.desiredSize ?? 0);
  const end = (reason: EndReason) => {
    if (ended) return;
    ended = true;
    unsubscribe();
    letGo(held);
    signal.removeEventListener("abort", gone);
    room?.();
    try {
      controller.close();
    } catch {
      // Already closed or cancelled by the consumer.
    }
    onEnd(reason);
  };
  const gone = () => end("client");
  const held: OpenStream = {
    beat() {
      stalledBeats = !took && waiting() >= QUEUE_ROOM ? stalledBeats + 1 : 0;
      took = false;
      if (stalledBeats >= STALL_BEATS) return end("stalled");
      // A connection with something waiting is not idle: a comment would only lengthen its queue.
      if (waiting() === 0) controller.enqueue(HEARTBEAT);
    },
    end,
  };

  /**
   * Writes the items after the last one sent that this stream accepts, in order, until MAX_QUEUED_EVENTS
   * wait for the connection; answers how many of `items` it went through (all of them, unless it stopped).
   */
  function send(items: readonly Item[]): number {
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      if (ended) return items.length;
      if (item.position <= sent) continue;
      if (waiting() >= MAX_QUEUED_EVENTS) return index;
      sent = item.position;
      if (accepts(item)) controller.enqueue(encoded(item, frame));
    }
    return items.length;
  }

  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        // At once, so the headers and a first line leave even through a buffering proxy.
        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: open\n\n`));
        if (signal.aborted) return end("client");
        signal.addEventListener("abort", gone);
        holdOpen(held);
        // Behind, the stream passes over what the feed hands it: it reads the same from the table.
        unsubscribe = feed.subscribe((items) => {
          if (live && send(items) < items.length) fallBehind();
        });
        fallBehind();
      },
      pull() {
        took = true;
        room?.();
        room = undefined;
      },
      cancel: () => end("client"),
    },
    // Counted in chunks (events, comments), so desiredSize says how many wait for the connection.
    { highWaterMark: QUEUE_ROOM, size: () => 1 },
  );

  /** Reads the table from the last position sent, at the connection's pace, until it has caught up with the feed; then goes live. */
  function fallBehind(): void {
    live = false;
    void catchUp().catch(() => end("failed"));
  }

  // Nothing read is held while the connection makes room: what a page had past MAX_QUEUED_EVENTS is read
  // again (from the feed's memory, mostly), as ten thousand slow streams holding a page each filled a worker's heap.
  async function catchUp(): Promise<void> {
    for (;;) {
      if (ended) return;
      if ((controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (room = resolve));
      if (ended) return;
      // Checked and acted on in one turn: the feed hands nothing between the two.
      if (sent >= feed.position) {
        live = true;
        return;
      }
      const page = await feed.readAfter(sent, MAX_QUEUED_EVENTS);
      // Nothing kept after it (pruned by retention since): the stream goes on from the feed's position.
      if (page.length === 0) {
        live = true;
        return;
      }
      send(page);
    }
  }

  return { body, end };
}

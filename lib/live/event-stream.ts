import { processGlobal } from "@/lib/server/process-global";

// One client's stream (issue 32), as Server-Sent Events: every item of a feed
// after its start position that the stream accepts, in order, none twice,
// then live ones as the process's feed reads them. The API's change feed
// (lib/live/change-tail.ts) and the Activity page's (lib/live/activity-tail.ts)
// are both sent this way.
//
// Catching up and going live meet without a gap: the stream subscribes to the
// feed first, at the feed's position p, and keeps what the feed hands it
// meanwhile; it reads the table from its start up to p, then sends what it
// kept. Every item is sent once: the stream remembers the last position it
// sent and passes over anything at or before it.
//
// A consumer that reads too slowly is cut once MAX_QUEUED_EVENTS live events
// wait for it (or MAX_KEPT items while it catches up): it reconnects with its
// Last-Event-ID and resumes from there, from the table, at its own pace. The
// cap counts events, not bytes: an event's bytes are shared by every stream
// that sends it, so what each waiting one costs a stream is its place in the
// queue, and ten thousand slow consumers must fit a worker's heap.

/** What the client waits before reconnecting, in ms (the `retry:` field). */
export const RETRY_MS = 2_000;
/** A comment at least this often keeps proxies and load balancers from closing an idle stream (issue 32: at least every 15 s). */
export const HEARTBEAT_MS = 10_000;
/** Live events written but not yet taken by the connection, past which the stream is cut (at 50 changes a second, five seconds' worth). */
export const MAX_QUEUED_EVENTS = 256;
/** Chunks the connection may be behind before the backlog waits for it. */
const QUEUE_ROOM = 16;
/** Items kept while the stream reads its backlog, past which it is cut (it resumes from the table). */
const MAX_KEPT = 50_000;

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
  /** The items after `position`, in order: a page of them (a stream's backlog, read at the client's pace). */
  readAfter(position: bigint): Promise<readonly Item[]>;
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

type OpenStream = { heartbeat(): void; end(): void };

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
    for (const held of state.streams) held.heartbeat();
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
  for (const stream of [...openStreams().streams]) stream.end();
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
  /** Called once, when the stream has ended, for whatever reason. */
  onEnd(): void;
};

export type EventStream = { body: ReadableStream<Uint8Array>; end(): void };

export function eventStream<Item extends Positioned>(feed: Feed<Item>, { start, accepts, frame, signal, onEnd }: StreamOptions<Item>): EventStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let live = false;
  let sent = start;
  let kept: Item[] = [];
  let unsubscribe: () => void = () => {};
  // Resolved when the connection has taken what was queued (pull), so the backlog is read at the client's pace.
  let room: (() => void) | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    letGo(held);
    signal.removeEventListener("abort", end);
    room?.();
    try {
      controller.close();
    } catch {
      // Already closed or cancelled by the consumer.
    }
    onEnd();
  };
  const held: OpenStream = { heartbeat: () => write(HEARTBEAT), end };

  function write(bytes: Uint8Array): void {
    if (ended) return;
    controller.enqueue(bytes);
    // The backlog is read a page at a time as the connection takes it, so only live events can pile up.
    if (live && (controller.desiredSize ?? 0) < -MAX_QUEUED_EVENTS) end();
  }

  function send(items: readonly Item[]): void {
    for (const item of items) {
      if (ended) return;
      if (item.position <= sent) continue;
      sent = item.position;
      if (accepts(item)) write(encoded(item, frame));
    }
  }

  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        // At once, so the headers and a first line leave even through a buffering proxy.
        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: open\n\n`));
        if (signal.aborted) return end();
        signal.addEventListener("abort", end);
        holdOpen(held);
        const upTo = feed.position;
        unsubscribe = feed.subscribe((items) => {
          if (live) return send(items);
          kept.push(...items);
          if (kept.length > MAX_KEPT) end();
        });
        void catchUp(upTo).catch(() => end());
      },
      pull() {
        room?.();
        room = undefined;
      },
      cancel: () => end(),
    },
    // Counted in chunks (events, comments), so desiredSize says how many wait for the connection.
    { highWaterMark: QUEUE_ROOM, size: () => 1 },
  );

  async function catchUp(upTo: bigint): Promise<void> {
    let cursor = sent;
    while (cursor < upTo && !ended) {
      const page = (await feed.readAfter(cursor)).filter((item) => item.position <= upTo);
      if (page.length === 0) break;
      send(page);
      cursor = page.at(-1)!.position;
      if (!ended && (controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (room = resolve));
    }
    live = true;
    const waiting = kept;
    kept = [];
    send(waiting);
  }

  return { body, end };
}

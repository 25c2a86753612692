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
// reading, and its connection is reset at once, what it had not taken dropped
// (issue 44). A client that comes back resumes with its Last-Event-ID.

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
/** Events the connection may be behind before the stream waits for it, when it reads the table. */
const QUEUE_ROOM = 16;
/**
 * How long a stream ended for any reason but its client's not reading (its access ended, the process stops, a
 * read failed) leaves its client to take what was written and the end, before its connection is reset (issue 44).
 * A client that reads takes them within a few round trips and reconnects; one that does not would otherwise
 * keep a socket and the kernel's buffer of unsent bytes after its place in the limits was given back, and a
 * stopping server would wait for it until its deadline.
 */
export const END_GRACE_MS = 2_000;

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
// A whole batch's events as one chunk, for every stream that sends all of it: joined once per process.
const batches = new WeakMap<readonly Positioned[], Uint8Array>();
// How many events a chunk of several holds: a stream's queue counts events, not chunks.
const eventsIn = new WeakMap<Uint8Array, number>();

function encoded(item: Positioned, frame: (item: never) => string): Uint8Array {
  let bytes = frames.get(item);
  if (!bytes) {
    bytes = encoder.encode(frame(item as never));
    frames.set(item, bytes);
  }
  return bytes;
}

/** `parts` as one chunk, counted as that many events. */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  eventsIn.set(bytes, parts.length);
  return bytes;
}

/** The chunk for all of `batch`, whose events are `parts`: the same one for every stream that sends the whole batch. */
function wholeBatch(batch: readonly Positioned[], parts: readonly Uint8Array[]): Uint8Array {
  let bytes = batches.get(batch);
  if (!bytes) {
    bytes = joined(parts);
    batches.set(batch, bytes);
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

/** A client's connection, as a stream writes to it. */
export type Connection = {
  /** Writes `chunk`, which holds `events` events (a comment counts as one). */
  write(chunk: Uint8Array, events: number): void;
  /** The events (and comments) written that the connection has not taken yet. */
  waiting(): number;
  /**
   * Ends the answer, for `reason`: "stalled" drops what the client has not taken, at once; "client" finds it
   * gone; any other ends it as a reading client expects, once what was written has gone, unless it has not
   * within END_GRACE_MS.
   */
  close(reason: EndReason): void;
};

/** A stream's side for the connection it writes to. */
export type Connected = {
  /** The connection took what was written (some of it): the stream may write more. */
  taken(): void;
  /** The client went away. */
  gone(): void;
};

export type EventStream = {
  /** The answer's body, for a server that reads it (Next.js): the stream starts writing when it is first read. */
  body: ReadableStream<Uint8Array>;
  end(reason: EndReason): void;
};

// A body's own connection, for a server that writes to its sockets itself (lib/server/direct-streams.ts)
// rather than read the body: each write is then one write on the socket, with no web stream between.
const connectors = new WeakMap<ReadableStream<Uint8Array>, (connection: Connection) => Connected>();

/** How to write the stream whose body `body` is straight to a connection, if it is one; the body is then never read. */
export function streamConnector(body: ReadableStream<Uint8Array>): ((connection: Connection) => Connected) | undefined {
  const connect = connectors.get(body);
  connectors.delete(body);
  return connect;
}

const PREAMBLE = encoder.encode(`retry: ${RETRY_MS}\n: open\n\n`);

export function eventStream<Item extends Positioned>(feed: Feed<Item>, { start, accepts, frame, signal, onEnd }: StreamOptions<Item>): EventStream {
  // Where the stream writes: set once, by the first read of its body or by a server's own connection.
  let connection: Connection | undefined;
  // Why the stream ended, once it has.
  let ended: EndReason | undefined;
  let live = false;
  let sent = start;
  let unsubscribe: () => void = () => {};
  // Resolved when the connection has taken enough of what was written, so the table is read at the client's pace.
  let room: (() => void) | undefined;
  // Whether the connection has taken anything since the last heartbeat, and for how many beats it has not while events waited.
  let took = true;
  let stalledBeats = 0;

  const waiting = () => connection?.waiting() ?? 0;
  const end = (reason: EndReason) => {
    if (ended) return;
    ended = reason;
    unsubscribe();
    letGo(held);
    signal.removeEventListener("abort", gone);
    room?.();
    connection?.close(reason);
    onEnd(reason);
  };
  const gone = () => end("client");
  const held: OpenStream = {
    beat() {
      if (!connection) return;
      stalledBeats = !took && waiting() >= QUEUE_ROOM ? stalledBeats + 1 : 0;
      took = false;
      if (stalledBeats >= STALL_BEATS) return end("stalled");
      // A connection with something waiting is not idle: a comment would only lengthen its queue.
      if (waiting() === 0) connection.write(HEARTBEAT, 1);
    },
    end,
  };
  const connected: Connected = {
    taken() {
      took = true;
      if (room && waiting() < QUEUE_ROOM) {
        room();
        room = undefined;
      }
    },
    gone,
  };

  /** Starts writing to `to`: the preamble at once (so the headers and a first line leave, even through a buffering proxy), then the backlog, then live. */
  function connect(to: Connection): Connected {
    connection = to;
    to.write(PREAMBLE, 1);
    if (ended) {
      to.close(ended);
      return connected;
    }
    // Behind, the stream passes over what the feed hands it: it reads the same from the table.
    unsubscribe = feed.subscribe((items) => {
      if (live && send(items) < items.length) fallBehind();
    });
    fallBehind();
    return connected;
  }

  /**
   * Writes the items after the last one sent that this stream accepts, in order, as one chunk (one write
   * on the connection), until MAX_QUEUED_EVENTS wait for it; answers how many of `items` it went
   * through (all of them, unless it stopped).
   */
  function send(items: readonly Item[]): number {
    if (ended) return items.length;
    const parts: Uint8Array[] = [];
    // Whether every item goes out: then the chunk is the batch's own, shared by every stream that sends all of it.
    let whole = true;
    let through = items.length;
    const space = MAX_QUEUED_EVENTS - waiting();
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      if (item.position <= sent) {
        whole = false;
        continue;
      }
      if (parts.length >= space) {
        through = index;
        break;
      }
      sent = item.position;
      if (accepts(item)) parts.push(encoded(item, frame));
      else whole = false;
    }
    if (parts.length > 0) connection!.write(whole && through === items.length ? wholeBatch(items, parts) : joined(parts), parts.length);
    return through;
  }

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
      if (waiting() >= QUEUE_ROOM) await new Promise<void>((resolve) => (room = resolve));
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

  // Held open from the start, so a shutdown or the client's going ends it even before it is first read.
  if (signal.aborted) end("client");
  else {
    signal.addEventListener("abort", gone);
    holdOpen(held);
  }

  const body = new ReadableStream<Uint8Array>(
    {
      // Read for the first time: the stream writes to the body; afterwards, each read takes what was written.
      pull(controller) {
        if (!connection) connect(bodyConnection(controller));
        else connected.taken();
      },
      cancel: gone,
    },
    // Nothing asked for before a read, and the queue counted in events (and comments): how many wait for the reader.
    { highWaterMark: 0, size: (chunk) => eventsIn.get(chunk) ?? 1 },
  );
  connectors.set(body, connect);
  return { body, end };
}

/** The body's queue as a stream's connection. */
function bodyConnection(controller: ReadableStreamDefaultController<Uint8Array>): Connection {
  return {
    write: (chunk) => controller.enqueue(chunk),
    waiting: () => -(controller.desiredSize ?? 0),
    close(reason) {
      if (reason === "stalled") return cutBody(controller);
      try {
        controller.close();
      } catch {
        // Already closed or cancelled by the reader.
      }
      // What the reader has not taken by then is dropped; a no-op once it has taken the end.
      if (reason !== "client") setTimeout(() => cutBody(controller), END_GRACE_MS).unref();
    },
  };
}

/**
 * Drops what the body holds and fails it. Next (next dev, or a path Next answers) then destroys the response,
 * quietly for an AbortError, but only once the write it has under way is taken (its pipe waits for that
 * before it aborts): a client that reads nothing keeps its socket until it goes. Only the server's own
 * connection (lib/server/direct-streams.ts) can reset it at once.
 */
function cutBody(controller: ReadableStreamDefaultController<Uint8Array>): void {
  controller.error(new DOMException("the event stream was cut", "AbortError"));
}

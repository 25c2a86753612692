import { changesAfter } from "@/lib/live/change-reads";
import type { ChangeTail } from "@/lib/live/change-tail";
import { type ChangeFilter, matchesFilter, type PlantChange } from "@/lib/live/plant-change";
import { processGlobal } from "@/lib/server/process-global";

// One client's change stream (issue 32), as Server-Sent Events: every change
// after its start position that its filter takes, in order, none twice, then
// live ones as the process's feed (lib/live/change-tail.ts) reads them.
//
// Catching up and going live meet without a gap: the stream subscribes to the
// feed first, at the feed's position p, and keeps what the feed hands it
// meanwhile; it reads the table from its start up to p, then sends what it
// kept. Every change is sent once: the stream remembers the last position it
// sent and passes over anything at or before it.
//
// A consumer that reads too slowly is cut once MAX_QUEUED_BYTES wait for it
// (or MAX_KEPT changes while it catches up): it reconnects with its
// Last-Event-ID and resumes from there, from the table, at its own pace.

/** What the client waits before reconnecting, in ms (the `retry:` field). */
export const RETRY_MS = 2_000;
/** A comment at least this often keeps proxies and load balancers from closing an idle stream (issue 32: at least every 15 s). */
export const HEARTBEAT_MS = 10_000;
/** Bytes written but not yet taken by the connection, past which the stream is cut. */
export const MAX_QUEUED_BYTES = 1024 * 1024;
/** Changes kept while the stream reads its backlog, past which it is cut (it resumes from the table). */
const MAX_KEPT = 50_000;

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(": keep-alive\n\n");

// The same bytes for every stream a change is sent on: encoded once per process.
const frames = new WeakMap<PlantChange, Uint8Array>();

function frame(change: PlantChange): Uint8Array {
  let bytes = frames.get(change);
  if (!bytes) {
    bytes = encoder.encode(`id: ${change.position}\nevent: ${change.type}\ndata: ${change.body}\n\n`);
    frames.set(change, bytes);
  }
  return bytes;
}

type OpenStream = { heartbeat(): void; end(): void };

/** The process's open streams: one timer beats for all of them, and a shutdown ends them all. */
function openStreams(): Set<OpenStream> {
  return processGlobal("live.open", () => new Set());
}

let beating: NodeJS.Timeout | undefined;

/** Holds `stream` open: it is sent the heartbeat, which beats while any stream is open. */
function holdOpen(stream: OpenStream): void {
  openStreams().add(stream);
  beating ??= setInterval(() => {
    for (const open of openStreams()) open.heartbeat();
  }, HEARTBEAT_MS).unref();
}

/** Lets `stream` go; the last one stops the heartbeat. */
function letGo(stream: OpenStream): void {
  const streams = openStreams();
  streams.delete(stream);
  if (streams.size > 0) return;
  clearInterval(beating);
  beating = undefined;
}

/** Ends every open stream (at shutdown): each client reconnects, to another process, after `retry`. */
export function endAllStreams(): void {
  for (const stream of [...openStreams()]) stream.end();
}

export type StreamOptions = {
  /** Changes after this position are sent. */
  start: bigint;
  filter: ChangeFilter;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** Called once, when the stream has ended, for whatever reason. */
  onEnd(): void;
};

export type ChangeStream = { body: ReadableStream<Uint8Array>; end(): void };

export function changeStream(tail: ChangeTail, { start, filter, signal, onEnd }: StreamOptions): ChangeStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let live = false;
  let sent = start;
  let kept: PlantChange[] = [];
  let unsubscribe: () => void = () => {};
  // Resolved when the connection has taken what was queued (pull), so the backlog is read at the client's pace.
  let room: (() => void) | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    letGo(open);
    signal.removeEventListener("abort", end);
    room?.();
    try {
      controller.close();
    } catch {
      // Already closed or cancelled by the consumer.
    }
    onEnd();
  };
  const open: OpenStream = { heartbeat: () => write(HEARTBEAT), end };

  function write(bytes: Uint8Array): void {
    if (ended) return;
    controller.enqueue(bytes);
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) end();
  }

  function send(changes: readonly PlantChange[]): void {
    for (const change of changes) {
      if (ended) return;
      if (change.position <= sent) continue;
      sent = change.position;
      if (matchesFilter(change, filter)) write(frame(change));
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
        holdOpen(open);
        const upTo = tail.position;
        unsubscribe = tail.subscribe((changes) => {
          if (live) return send(changes);
          kept.push(...changes);
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
    // Counted in bytes, so desiredSize says how much waits for the connection.
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );

  async function catchUp(upTo: bigint): Promise<void> {
    let cursor = sent;
    while (cursor < upTo && !ended) {
      const page = (await changesAfter(cursor)).filter((change) => change.position <= upTo);
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

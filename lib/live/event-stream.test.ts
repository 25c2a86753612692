import { describe, expect, it, vi } from "vitest";
import {
  type Connection,
  END_GRACE_MS,
  type EndReason,
  endAllStreams,
  eventFrame,
  eventStream,
  type Feed,
  HEARTBEAT_MS,
  MAX_QUEUED_EVENTS,
  STALL_BEATS,
  type StreamOptions,
  streamConnector,
} from "@/lib/live/event-stream";
import { type ChangeFilter, matchesFilter, type PlantChange } from "@/lib/live/plant-change";

// One stream over a feed the test drives by hand: what reaches the consumer,
// from the backlog and live, and when the stream is cut.

function handFeed(): Feed<PlantChange> & { hand(changes: PlantChange[]): void; record(changes: PlantChange[]): void; reads: number } {
  let position = 0n;
  let reads = 0;
  const listeners = new Set<(changes: readonly PlantChange[]) => void>();
  const recorded: PlantChange[] = [];
  return {
    get position() {
      return position;
    },
    /** How many pages streams have read from the table. */
    get reads() {
      return reads;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // A page of two, so a backlog takes several reads.
    async readAfter(after) {
      reads++;
      return recorded.filter((change) => change.position > after).slice(0, 2);
    },
    /** Changes written before the stream opened: in the table, read up to by the feed. */
    record(changes) {
      recorded.push(...changes);
      position = changes.at(-1)!.position;
    },
    hand(changes) {
      recorded.push(...changes);
      position = changes.at(-1)!.position;
      for (const listener of listeners) listener(changes);
    },
  };
}

function changeStream(feed: Feed<PlantChange>, { filter, ...options }: Omit<StreamOptions<PlantChange>, "accepts" | "frame"> & { filter: ChangeFilter }) {
  return eventStream(feed, { ...options, accepts: (change) => matchesFilter(change, filter), frame: (change) => eventFrame(change.position, change.type, change.body) });
}

let nextPosition = 1n;
function change(plantId: bigint, tag: string | null, body = "{}"): PlantChange {
  return { position: nextPosition++, type: "plant.created", plantId, tag, previousTag: null, body };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text;
}

describe("eventStream", () => {
  it("reads its backlog from the feed a page at a time, then goes live, with nothing missed or repeated where they meet", async () => {
    const feed = handFeed();
    const start = feed.position;
    const backlog = [change(1n, null, '{"n":1}'), change(2n, null, '{"n":2}'), change(3n, null, '{"n":3}')];
    feed.record(backlog);
    const stream = changeStream(feed, { start, filter: {}, signal: new AbortController().signal, onEnd: () => {} });
    const reading = readAll(stream.body);
    // Handed while the backlog is read: the third again (the feed read it twice), and a fourth.
    const fourth = change(4n, null, '{"n":4}');
    feed.hand([backlog[2]!, fourth]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    stream.end("shutdown");
    const ids = [...(await reading).matchAll(/^id: (\d+)$/gm)].map((match) => BigInt(match[1]!));
    expect(ids).toEqual([...backlog, fourth].map((item) => item.position));
  });

  it("sends each change after its start once, in order, as its filter takes them, and ends when asked", async () => {
    const feed = handFeed();
    let ended = 0;
    const stream = changeStream(feed, { start: feed.position, filter: { tag: "fern" }, signal: new AbortController().signal, onEnd: () => ended++ });
    const reading = readAll(stream.body);
    const [first, second, third] = [change(1n, "fern", '{"n":1}'), change(2n, "palm"), change(3n, "fern", '{"n":3}')];
    // The backlog's catching up meets the live batches; a batch handed twice is sent once.
    await new Promise((resolve) => setTimeout(resolve, 0));
    feed.hand([first, second]);
    feed.hand([first, second, third]);
    stream.end("shutdown");
    stream.end("access");
    const text = await reading;
    expect(text).toBe(`retry: 2000\n: open\n\nid: ${first.position}\nevent: plant.created\ndata: {"n":1}\n\nid: ${third.position}\nevent: plant.created\ndata: {"n":3}\n\n`);
    expect(ended).toBe(1);
  });

  it("falls behind rather than queue past MAX_QUEUED_EVENTS, and reads the rest from the table: a batch of any size arrives whole, in order, once", async () => {
    const feed = handFeed();
    const reasons: EndReason[] = [];
    const stream = changeStream(feed, { start: feed.position, filter: {}, signal: new AbortController().signal, onEnd: (reason) => reasons.push(reason) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // An import's batch, handed at once to a client that has not read yet; then another while it catches up.
    const first = Array.from({ length: 4 * MAX_QUEUED_EVENTS }, (_, index) => change(BigInt(index), null));
    feed.hand(first);
    let text = "";
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const chunk of stream.body) text += decoder.decode(chunk, { stream: true });
    })();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = Array.from({ length: MAX_QUEUED_EVENTS }, (_, index) => change(BigInt(index), null));
    feed.hand(second);
    const ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => BigInt(match[1]!));
    const all = [...first, ...second].map((item) => item.position);
    await expect.poll(() => ids().length).toBe(all.length);
    expect(ids()).toEqual(all);
    // At most MAX_QUEUED_EVENTS of the first batch were queued: the rest were read from the table, in pages of two.
    expect(feed.reads).toBeGreaterThanOrEqual((first.length - MAX_QUEUED_EVENTS) / 2);
    expect(reasons).toEqual([]);
    stream.end("shutdown");
    await reading;
  });

  it("writes each batch it is handed as one chunk, the same bytes for every stream that sends all of it", async () => {
    const feed = handFeed();
    const options = { start: feed.position, signal: new AbortController().signal, onEnd: () => {} };
    const writes = (filter: ChangeFilter) => {
      const written: { chunk: Uint8Array; events: number }[] = [];
      const connection: Connection = { write: (chunk, events) => written.push({ chunk, events }), waiting: () => 0, close: () => {} };
      streamConnector(changeStream(feed, { ...options, filter }).body)!(connection);
      return written;
    };
    const [all, alsoAll, ferns] = [writes({}), writes({}), writes({ tag: "fern" })];
    await new Promise((resolve) => setTimeout(resolve, 0));
    const batch = [change(1n, "fern", '{"n":1}'), change(2n, "palm", '{"n":2}'), change(3n, "fern", '{"n":3}')];
    feed.hand(batch);
    const text = (chunk: Uint8Array) => new TextDecoder().decode(chunk);
    // After the preamble, one write each: the whole batch, or what the filter takes of it.
    expect(all.map(({ events }) => events)).toEqual([1, 3]);
    expect(text(all[1]!.chunk)).toBe(batch.map((item) => eventFrame(item.position, item.type, item.body)).join(""));
    expect(alsoAll[1]!.chunk).toBe(all[1]!.chunk);
    expect(ferns.map(({ events }) => events)).toEqual([1, 2]);
    expect(text(ferns[1]!.chunk)).toBe(eventFrame(batch[0]!.position, "plant.created", '{"n":1}') + eventFrame(batch[2]!.position, "plant.created", '{"n":3}'));
    endAllStreams();
  });

  it("cuts a connection that has taken nothing for STALL_BEATS heartbeats while events wait for it, and never an idle one", async () => {
    vi.useFakeTimers();
    try {
      const feed = handFeed();
      const reasons: EndReason[] = [];
      const idle = changeStream(feed, { start: feed.position, filter: { tag: "none" }, signal: new AbortController().signal, onEnd: (reason) => reasons.push(`idle ${reason}` as EndReason) });
      const stalled = changeStream(feed, { start: feed.position, filter: {}, signal: new AbortController().signal, onEnd: (reason) => reasons.push(reason) });
      // Both read once (a server connects the stream to its client), then nothing more is taken.
      await idle.body.getReader().read();
      const reader = stalled.body.getReader();
      await reader.read();
      await vi.advanceTimersByTimeAsync(0);
      feed.hand(Array.from({ length: 100 }, (_, index) => change(BigInt(index), null)));
      await vi.advanceTimersByTimeAsync((STALL_BEATS - 1) * HEARTBEAT_MS);
      expect(reasons).toEqual([]);
      await vi.advanceTimersByTimeAsync(2 * HEARTBEAT_MS);
      expect(reasons).toEqual(["stalled"]);
      // What was queued is dropped, not kept for a reader that does not read: the client resumes from its last id.
      await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
      idle.end("shutdown");
      expect(reasons).toEqual(["stalled", "idle shutdown"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends when the client goes away, and every open stream at shutdown", async () => {
    const feed = handFeed();
    const client = new AbortController();
    const ends: EndReason[] = [];
    changeStream(feed, { start: 0n, filter: {}, signal: client.signal, onEnd: (reason) => ends.push(reason) });
    const other = changeStream(feed, { start: 0n, filter: {}, signal: new AbortController().signal, onEnd: (reason) => ends.push(reason) });
    client.abort();
    endAllStreams();
    expect(ends).toEqual(["client", "shutdown"]);
    expect(await readAll(other.body)).toBe("retry: 2000\n: open\n\n");
  });

  it("gives a stream ended for its access END_GRACE_MS to be read to its end, then drops what its reader has not taken", async () => {
    vi.useFakeTimers();
    try {
      const feed = handFeed();
      const options = { start: feed.position, filter: {}, signal: new AbortController().signal, onEnd: () => {} };
      const reading = changeStream(feed, options);
      const silent = changeStream(feed, options);
      const readingText = readAll(reading.body);
      const silentReader = silent.body.getReader();
      await silentReader.read();
      await vi.advanceTimersByTimeAsync(0);
      feed.hand([change(1n, null)]);
      reading.end("access");
      silent.end("access");
      await vi.advanceTimersByTimeAsync(END_GRACE_MS);
      expect(await readingText).toMatch(/^id: \d+$/m);
      await expect(silentReader.read()).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends a comment every HEARTBEAT_MS while the stream is open, so proxies keep an idle one", async () => {
    vi.useFakeTimers();
    try {
      const feed = handFeed();
      const stream = changeStream(feed, { start: feed.position, filter: {}, signal: new AbortController().signal, onEnd: () => {} });
      const reading = readAll(stream.body);
      await vi.advanceTimersByTimeAsync(2 * HEARTBEAT_MS);
      stream.end("shutdown");
      expect(await reading).toBe("retry: 2000\n: open\n\n: keep-alive\n\n: keep-alive\n\n");
    } finally {
      vi.useRealTimers();
    }
  });
});

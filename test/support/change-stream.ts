import { createParser } from "eventsource-parser";
import { HANG_GUARD_MS } from "./hang-guard";

// A client of GET /plants/events for the tests: fetch, read as it arrives,
// parsed by the same parser the `eventsource` package uses. It keeps every
// event and the raw text, and says when the server ended the stream.

export type StreamEvent = { id: string | undefined; event: string | undefined; data: string };

export type ChangeStreamClient = {
  status: number;
  headers: Headers;
  /** The body as text when the answer is not a stream (an Error body). */
  errorBody: string | undefined;
  events: StreamEvent[];
  /** Everything read, as text: comments and the retry field included. */
  raw(): string;
  /** Waits until `count` events have arrived (the hang guard aside); answers them all. */
  waitFor(count: number): Promise<StreamEvent[]>;
  /** Settles when the server has ended the stream (or the connection broke). */
  ended: Promise<void>;
  close(): void;
};

export async function openChangeStream(url: string, headers: Record<string, string>): Promise<ChangeStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: StreamEvent[] = [];
  let text = "";
  let waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (message) => {
      events.push({ id: message.id, event: message.event, data: message.data });
      for (const waiter of waiters) waiter();
    },
  });
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return { status: response.status, headers: response.headers, errorBody: await response.text(), events, raw: () => text, waitFor: async () => events, ended: Promise.resolve(), close: () => {} };
  }
  let finished = false;
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        const piece = decoder.decode(chunk as Uint8Array, { stream: true });
        text += piece;
        parser.feed(piece);
      }
    } catch {
      // Closed by the test, or the connection broke: either way, it has ended.
    } finally {
      finished = true;
      for (const waiter of waiters) waiter();
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    errorBody: undefined,
    events,
    raw: () => text,
    async waitFor(count) {
      const deadline = Date.now() + HANG_GUARD_MS;
      while (events.length < count) {
        if (finished) throw new Error(`the stream ended after ${events.length} of ${count} events:\n${text}`);
        if (Date.now() > deadline) throw new Error(`waited ${HANG_GUARD_MS / 1000} s for ${count} events; got ${events.length}:\n${text}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1_000);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters = [];
      }
      return events;
    },
    ended,
    close: () => abort.abort(),
  };
}

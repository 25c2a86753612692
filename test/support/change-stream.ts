import { connect } from "node:net";
import { createParser } from "eventsource-parser";
import { HANG_GUARD_MS } from "./hang-guard";

// A client of GET /plants/events for the tests: fetch, read as it arrives,
// parsed by the same parser the `eventsource` package uses. It keeps every
// event and the raw text, and says how the stream ended. And a client that
// reads nothing after the answer's head (openUnreadStream).

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
  /** Settles when the stream has ended: "end" when the server ended the answer, "broken" when the connection broke (or the test closed it). */
  ended: Promise<"end" | "broken">;
  close(): void;
};

export async function openChangeStream(url: string, headers: Record<string, string>): Promise<ChangeStreamClient> {
  const abort = new AbortController();
  // Each stream on a connection of its own, closed with it: a stream the server ends closes its connection
  // just after the end, and fetch, which reads the end first, would put it back in its pool for the test's
  // next request ("other side closed", seen once in a full run: issue 44's closing note).
  const response = await fetch(url, { headers: { accept: "text/event-stream", connection: "close", ...headers }, signal: abort.signal });
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
    return { status: response.status, headers: response.headers, errorBody: await response.text(), events, raw: () => text, waitFor: async () => events, ended: Promise.resolve("end"), close: () => {} };
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
      return "end" as const;
    } catch {
      // Closed by the test, or the connection broke: either way, it has ended.
      return "broken" as const;
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

/** A client that has read its answer's head, and reads nothing more: what the server sends next stays in the kernel's buffers, its close unseen. */
export type UnreadStream = { status: number; localPort: number; destroy(): void };

/** Sends GET `url` as HTTP/1.1 on a connection of its own, kept alive as browsers and fetch keep theirs, and stops reading once the head has come. */
export async function openUnreadStream(url: string, headers: Record<string, string>): Promise<UnreadStream> {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = connect(Number(port), hostname);
  // What comes once it has stopped reading (the server's reset) is none of its business.
  socket.on("error", () => {});
  const head = [`GET ${pathname}${search} HTTP/1.1`, `host: ${hostname}:${port}`, "accept: text/event-stream", ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  socket.write(`${head.join("\r\n")}\r\n\r\n`);
  const statusLine = await new Promise<string>((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (!text.includes("\r\n\r\n")) return;
      socket.pause();
      socket.off("data", onData);
      resolve(text.slice(0, text.indexOf("\r\n")));
    };
    socket.on("data", onData).once("close", () => reject(new Error(`the connection closed before the answer's head: ${text}`)));
  });
  return { status: Number(statusLine.split(" ")[1]), localPort: socket.localPort!, destroy: () => socket.destroy() };
}

import { createParser } from "eventsource-parser";
import { trackStream } from "@/lib/client/live-connection";
import { reconnectDelay, retryAfterMs } from "@/lib/client/reconnect-delay";
import { onSignOutElsewhere } from "@/lib/client/signed-out";

// A staff page following one of the app's event streams (issues 32 and 44),
// with the session cookie, from the position the page was rendered at, so
// that nothing written between the render and the stream's opening is missed.
//
// Read with fetch, not the browser's EventSource: EventSource gives up for
// good on any answer but a 200 (the HTML standard "fails the connection"), so
// a page whose stream met a server stopping (503), the stream limits (429) or
// a proxy's 502 stayed stale without a word. Here every failure a browser can
// see is retried, after reconnectDelay (lib/client/reconnect-delay.ts), from
// the last event received (?after=), so nothing is missed; a 401 or 403 (the
// session ended) reads the page again, which takes it to sign-in; a 410 (the
// changes since were removed) stops, and the page asks to be reloaded. How
// the stream stands feeds the page's notice (lib/client/live-connection.ts).
//
// A sign-out in another tab closes the stream and reads the page again
// (lib/client/signed-out.ts).
//
// A page the person cannot see holds no stream: a browser gives an origin six
// connections over HTTP/1.1, and ten tabs each holding one would leave the
// next page none. A hidden page closes its stream and, shown again, opens
// another after the last event it got, so it misses nothing.

export type EventSourceOptions<Type extends string> = {
  /** The stream's path, e.g. /plants/events. */
  path: string;
  /** The position the page's data was read at: the stream sends what came after it. */
  after: string;
  /** Its filters, as its query takes them. */
  query?: URLSearchParams;
  types: readonly Type[];
  /** Each event, in the stream's order, with its id (its position) and its data's text. */
  onEvent(type: Type, id: string, data: string): void;
};

/** What the server says to wait before reconnecting until a stream's `retry:` says (lib/live/event-stream.ts RETRY_MS). */
const FIRST_RETRY_MS = 2_000;
/** An open stream's connection is taken for dead after this long without a byte: the server sends a comment at least every 10 s. */
const SILENT_MS = 45_000;
/** A stream that stayed open this long was a success: the next failure waits from the start again. */
const STEADY_MS = 30_000;
/** A page read again for a refused stream does not read itself again within this long (a stream refused while the page is not). */
const REFUSED_RELOAD_GAP_MS = 60_000;
const REFUSED_RELOAD_KEY = "plant-store.stream-refused-reload";

/** Follows the stream until the returned function is called. */
export function followEventSource<Type extends string>({ path, after, query, types, onEvent }: EventSourceOptions<Type>): () => void {
  const wanted = new Set<string>(types);
  const tracked = trackStream();
  let last = after;
  let retryMs = FIRST_RETRY_MS;
  let failures = 0;
  let closed = false;
  // The attempt under way (a request, or an open stream), and the wait before the next.
  let attempt: AbortController | undefined;
  let waiting: ReturnType<typeof setTimeout> | undefined;

  async function connect(): Promise<void> {
    waiting = undefined;
    const controller = new AbortController();
    attempt = controller;
    const search = new URLSearchParams(query);
    search.set("after", last);
    let response: Response;
    try {
      response = await fetch(`${path}?${search}`, { headers: { accept: "text/event-stream" }, cache: "no-store", signal: controller.signal });
    } catch {
      return failed(controller);
    }
    if (attempt !== controller) return void response.body?.cancel().catch(() => {});
    if (response.status === 401 || response.status === 403) return refused();
    if (response.status === 410) return stop("stopped");
    if (response.status !== 200 || !isEventStream(response) || !response.body) {
      await response.body?.cancel().catch(() => {});
      return failed(controller, retryAfterMs(response.headers.get("retry-after")));
    }
    tracked.set("following");
    const opened = Date.now();
    try {
      await read(response.body, controller);
    } catch {
      // The connection broke, or went silent: reconnected below as after an end.
    }
    // Ended by the server (a shutdown, a cut, access ended) or the network: back after the server's retry:, as EventSource would.
    if (Date.now() - opened >= STEADY_MS) failures = 0;
    failed(controller);
  }

  /** Reads the stream's events until it ends; throws when the connection breaks or stays silent past SILENT_MS. */
  async function read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<void> {
    const parser = createParser({
      onEvent({ event, id, data }) {
        if (id !== undefined) last = id;
        if (!closed && event !== undefined && id !== undefined && wanted.has(event)) onEvent(event as Type, id, data);
      },
      onRetry: (ms) => (retryMs = ms),
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let silence = setTimeout(() => controller.abort(), SILENT_MS);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), SILENT_MS);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      clearTimeout(silence);
    }
  }

  /** The attempt failed or the stream ended: another, after the wait, unless the page closed it meanwhile. */
  function failed(controller: AbortController, atLeastMs = 0): void {
    // Not when the page closed it (hidden, or for good): `attempt` is then another, or none.
    if (closed || attempt !== controller) return;
    tracked.set("reconnecting");
    waiting = setTimeout(() => void connect(), reconnectDelay(failures++, retryMs, atLeastMs));
  }

  function refused(): void {
    stop("stopped");
    // The page read again goes to sign-in, unless it was just read for this and still opened (its stream refused, not the page).
    const before = Number(sessionStorage.getItem(REFUSED_RELOAD_KEY));
    if (Date.now() - before < REFUSED_RELOAD_GAP_MS) return;
    sessionStorage.setItem(REFUSED_RELOAD_KEY, String(Date.now()));
    window.location.reload();
  }

  /** Closes the stream and any wait, for good, in the state given. */
  function stop(state: "stopped" | "resting"): void {
    closed = true;
    pause();
    document.removeEventListener("visibilitychange", shownOrHidden);
    window.removeEventListener("online", online);
    stopListening();
    if (state === "resting") tracked.remove();
    else tracked.set(state);
  }

  function pause(): void {
    clearTimeout(waiting);
    waiting = undefined;
    attempt?.abort();
    attempt = undefined;
  }

  function shownOrHidden(): void {
    if (closed) return;
    if (document.visibilityState === "hidden") {
      pause();
      tracked.set("resting");
    } else if (!attempt || waiting) {
      // Shown again: at once, whatever the last wait was.
      pause();
      failures = 0;
      void connect();
    }
  }

  // Back online while waiting: at once rather than at the end of a long wait.
  function online(): void {
    if (closed || !waiting) return;
    clearTimeout(waiting);
    void connect();
  }

  if (document.visibilityState !== "hidden") void connect();
  document.addEventListener("visibilitychange", shownOrHidden);
  window.addEventListener("online", online);
  const stopListening = onSignOutElsewhere(() => {
    stop("resting");
    window.location.reload();
  });
  return () => stop("resting");
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

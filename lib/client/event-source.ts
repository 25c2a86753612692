import { onSignOutElsewhere } from "@/lib/client/signed-out";

// A staff page following one of the app's event streams (issue 32) through
// the browser's own EventSource, with the session cookie, from the position
// the page was rendered at, so that nothing written between the render and
// the stream's opening is missed. EventSource reconnects by itself after the
// network or the server comes back, resending the last id it got
// (Last-Event-ID), and the stream resumes exactly there.
//
// A sign-out in another tab closes the stream and reads the page again, which
// takes it to sign-in (lib/client/signed-out.ts).
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

/** Follows the stream until the returned function is called. */
export function followEventSource<Type extends string>({ path, after, query, types, onEvent }: EventSourceOptions<Type>): () => void {
  let last = after;
  let source: EventSource | undefined;
  let closed = false;

  function open(): void {
    const search = new URLSearchParams(query);
    search.set("after", last);
    const opened = new EventSource(`${path}?${search}`);
    for (const type of types) {
      opened.addEventListener(type, (event) => {
        const { lastEventId, data } = event as MessageEvent<string>;
        last = lastEventId;
        if (!closed) onEvent(type, lastEventId, data);
      });
    }
    source = opened;
  }

  function shownOrHidden(): void {
    if (document.visibilityState === "hidden") {
      source?.close();
      source = undefined;
    } else if (!source && !closed) {
      open();
    }
  }

  function stop(): void {
    closed = true;
    document.removeEventListener("visibilitychange", shownOrHidden);
    stopListening();
    source?.close();
  }

  if (document.visibilityState !== "hidden") open();
  document.addEventListener("visibilitychange", shownOrHidden);
  const stopListening = onSignOutElsewhere(() => {
    stop();
    window.location.reload();
  });
  return stop;
}

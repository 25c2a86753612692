import { PLANT_CHANGE_TYPES, type PlantChangeEvent } from "@/lib/client/plant-change-event";

// The staff pages following the change feed (issue 32): GET /plants/events
// through the browser's own EventSource, with the session cookie, from the
// position the page was rendered at, so that nothing changed between the
// render and the stream's opening is missed. EventSource reconnects by itself
// after the network or the server comes back, resending the last id it got
// (Last-Event-ID), and the feed resumes exactly there. Event data is read
// with the exact parser (lib/client/plant-change-reader.ts, loaded with the
// first event): JSON.parse would round ids above 2^53.

export type FollowOptions = {
  /** The feed position the page's data was read at. */
  after: string;
  /** ?id= as the API takes it: only these plants' changes. */
  filter?: { ids?: readonly bigint[] };
  onChange(change: PlantChangeEvent): void;
};

/**
 * Follows the feed until the returned function is called; changes reach
 * `onChange` in the feed's order. A page the person cannot see holds no
 * stream: a browser gives an origin six connections over HTTP/1.1, and ten
 * tabs each holding one would leave the next page none. A hidden page closes
 * its stream and, shown again, opens another after the last change it got,
 * so it misses nothing.
 */
export function followPlantChanges({ after, filter, onChange }: FollowOptions): () => void {
  let last = after;
  let source: EventSource | undefined;
  let closed = false;
  let reading = Promise.resolve();

  function open(): void {
    const query = new URLSearchParams({ after: last });
    for (const id of filter?.ids ?? []) query.append("id", id.toString());
    const opened = new EventSource(`/plants/events?${query}`);
    for (const type of PLANT_CHANGE_TYPES) {
      opened.addEventListener(type, (event) => {
        const { lastEventId, data } = event as MessageEvent<string>;
        last = lastEventId;
        // One after another: the reader's module loads with the first, and the order is the feed's.
        reading = reading
          .then(() => import("@/lib/client/plant-change-reader"))
          .then(({ readPlantChange }) => {
            const change = readPlantChange(type, lastEventId, data);
            if (change && !closed) onChange(change);
          })
          .catch(() => {});
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

  if (document.visibilityState !== "hidden") open();
  document.addEventListener("visibilitychange", shownOrHidden);
  return () => {
    closed = true;
    document.removeEventListener("visibilitychange", shownOrHidden);
    source?.close();
  };
}

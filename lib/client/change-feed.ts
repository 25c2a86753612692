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

/** Follows the feed until the returned function is called; changes reach `onChange` in the feed's order. */
export function followPlantChanges({ after, filter, onChange }: FollowOptions): () => void {
  const query = new URLSearchParams({ after });
  for (const id of filter?.ids ?? []) query.append("id", id.toString());
  const source = new EventSource(`/plants/events?${query}`);
  let closed = false;
  let reading = Promise.resolve();
  for (const type of PLANT_CHANGE_TYPES) {
    source.addEventListener(type, (event) => {
      const { lastEventId, data } = event as MessageEvent<string>;
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
  return () => {
    closed = true;
    source.close();
  };
}

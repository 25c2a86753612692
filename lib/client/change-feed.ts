import { followEventSource } from "@/lib/client/event-source";
import { PLANT_CHANGE_TYPES, type PlantChangeEvent } from "@/lib/client/plant-change-event";

// The staff pages following the API's change feed (issue 32), GET
// /plants/events, through lib/client/event-source.ts. Event data is read with
// the exact parser (lib/client/plant-change-reader.ts, loaded with the first
// event): JSON.parse would round ids above 2^53.

export type FollowOptions = {
  /** The feed position the page's data was read at. */
  after: string;
  /** ?id= as the API takes it: only these plants' changes. */
  filter?: { ids?: readonly bigint[] };
  onChange(change: PlantChangeEvent): void;
};

/** Follows the feed until the returned function is called; changes reach `onChange` in the feed's order. */
export function followPlantChanges({ after, filter, onChange }: FollowOptions): () => void {
  let closed = false;
  let reading = Promise.resolve();
  const query = new URLSearchParams();
  for (const id of filter?.ids ?? []) query.append("id", id.toString());
  const stop = followEventSource({
    path: "/plants/events",
    after,
    query,
    types: PLANT_CHANGE_TYPES,
    onEvent(type, id, data) {
      // One after another: the reader's module loads with the first, and the order is the feed's.
      reading = reading
        .then(() => import("@/lib/client/plant-change-reader"))
        .then(({ readPlantChange }) => {
          const change = readPlantChange(type, id, data);
          if (change && !closed) onChange(change);
        })
        .catch(() => {});
    },
  });
  return () => {
    closed = true;
    stop();
  };
}

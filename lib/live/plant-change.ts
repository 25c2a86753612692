// One change to a plant, as the change feed (issue 32) carries it: its
// position in the store's sequence of changes, and the event's text, built
// once per process and written as is to every stream that follows it.

export type PlantChangeType = "plant.created" | "plant.updated" | "plant.deleted";

export type PlantChange = {
  /** Grows in commit order with no gaps (migration 20261129000000_plant_changes). */
  position: bigint;
  type: PlantChangeType;
  plantId: bigint;
  /** The plant's tag after the change (before it, for a delete). */
  tag: string | null;
  /** An update's tag before it. */
  previousTag: string | null;
  /** The webhooks' body for this event: `{"type","timestamp","data"}`, exact JSON. */
  body: string;
};

/** What a stream asks for: ?id= (any of them) and ?tag=; an empty list or undefined asks for all. */
export type ChangeFilter = { ids?: readonly bigint[]; tag?: string };

/** Whether a stream with `filter` is sent `change`: a tag matches before or after an update, so a plant leaving the tag is seen leaving. */
export function matchesFilter(change: PlantChange, filter: ChangeFilter): boolean {
  if (filter.ids && filter.ids.length > 0 && !filter.ids.includes(change.plantId)) return false;
  if (filter.tag !== undefined && change.tag !== filter.tag && change.previousTag !== filter.tag) return false;
  return true;
}

import { bigintCell, type DirectRow, dateCell, directQuery, optionalStringCell, readRows, stringCell } from "@/lib/db/direct-reads";
import { eventBody } from "@/lib/json/event-body";
import type { PlantChange, PlantChangeType } from "@/lib/live/plant-change";

// Reading the change feed's table (migration 20261129000000_plant_changes),
// on the hot reads' connection (lib/db/direct-reads.ts): on SQLite a read
// whose answer cannot have changed (PRAGMA data_version) costs a few µs, so
// a process may look a few times a second while nothing happens.

/** Changes read at most per query: a stream far behind is sent its backlog page by page. */
export const READ_PAGE = 500;

const AFTER = directQuery(
  `SELECT "position", "type", "plant_id", "tag", "previous_tag", "data", "occurred_at" FROM "plant_changes"
   WHERE "position" > ? ORDER BY "position" LIMIT ?`,
);

// Positions have no gaps (the migration), so the oldest kept tells whether every position after p is still there.
const RANGE = directQuery(`SELECT min("position") AS "oldest", max("position") AS "newest" FROM "plant_changes"`);

/** The changes after `position`, in order, at most `limit`. */
export async function changesAfter(position: bigint, limit = READ_PAGE): Promise<PlantChange[]> {
  const rows = await readRows(AFTER, [position, limit]);
  return rows.map(toChange);
}

/** The kept positions: the oldest and the newest, or null for a store that has had no change. */
export async function keptPositions(): Promise<{ oldest: bigint; newest: bigint } | null> {
  const [row] = await readRows(RANGE, []);
  if (!row || row.oldest === null || row.newest === null) return null;
  return { oldest: bigintCell(row.oldest), newest: bigintCell(row.newest) };
}

/** The feed's newest position, as a page passes it to its stream (?after=): "0" before any change. */
export async function newestPosition(): Promise<string> {
  return String((await keptPositions())?.newest ?? 0n);
}

function toChange(row: DirectRow): PlantChange {
  const type = stringCell(row.type) as PlantChangeType;
  return {
    position: bigintCell(row.position),
    type,
    plantId: bigintCell(row.plant_id),
    tag: optionalStringCell(row.tag),
    previousTag: optionalStringCell(row.previous_tag),
    body: eventBody({ type, createdAt: dateCell(row.occurred_at), data: stringCell(row.data) }),
  };
}

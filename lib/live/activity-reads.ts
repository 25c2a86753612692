import { bigintCell, type DirectRow, dateCell, directQuery, optionalStringCell, readRows, stringCell } from "@/lib/db/direct-reads";

// Reading what the Activity and Team pages follow (issue 32): the activity
// records written after a position (a record's id), on the hot reads'
// connection (lib/db/direct-reads.ts), so that a look while nothing was
// written costs SQLite a PRAGMA data_version. Only what a page needs to
// decide whether a record concerns it: who, what, about what, when; never
// the changes themselves (the page reads them again, with its own access).

/** PostgreSQL's notification of a transaction that recorded activity (migration 20261129120000_activity_notify). */
export const ACTIVITY_CHANNEL = "activity_recorded";

/** Records read at most per query. */
export const ACTIVITY_READ_PAGE = 500;

/** One activity record, as a page following the record sees it: its id is its position. */
export type ActivityNote = {
  position: bigint;
  action: string;
  actorUserId: string | null;
  subjectKind: string;
  subjectId: string;
  occurredAt: Date;
};

const AFTER = directQuery(
  `SELECT "id", "action", "actor_user_id", "subject_kind", "subject_id", "occurred_at" FROM "activity"
   WHERE "id" > ? ORDER BY "id" LIMIT ?`,
);

const NEWEST = directQuery(`SELECT max("id") AS "newest" FROM "activity"`);

/** The records after `position`, oldest first, at most `limit`. */
export async function activityAfter(position: bigint, limit = ACTIVITY_READ_PAGE): Promise<ActivityNote[]> {
  const rows = await readRows(AFTER, [position, limit]);
  return rows.map(toNote);
}

/** The newest record's id, as a page passes it to its stream (?after=): "0" before any record. */
export async function newestActivityPosition(): Promise<string> {
  const [row] = await readRows(NEWEST, []);
  return row?.newest === null || row?.newest === undefined ? "0" : String(bigintCell(row.newest));
}

function toNote(row: DirectRow): ActivityNote {
  return {
    position: bigintCell(row.id),
    action: stringCell(row.action),
    actorUserId: optionalStringCell(row.actor_user_id),
    subjectKind: stringCell(row.subject_kind),
    subjectId: stringCell(row.subject_id),
    occurredAt: dateCell(row.occurred_at),
  };
}

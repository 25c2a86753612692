import type { SqlQuery, WriteStep } from "@/lib/db/sqlite";

// SQLite's activity INSERT as a statement of a synchronous write (issue 33),
// free of Prisma's client, so that the cluster primary's plant writer
// (lib/plants/plant-writer.ts) can record what it stores. The records are
// made ready (readyRecord, lib/activity/record.ts) where the change was
// asked for, before the write lock is taken.

/** The activity table's columns, in the order a record's values come. */
export const ACTIVITY_COLUMNS =
  '"occurred_at", "action", "actor_kind", "actor_user_id", "actor_token_id", "actor_name", "client_address", "user_agent", "request_id", "subject_kind", "subject_id", "changes"';

/** SQLite reads a record's values but the time from its row of the JSON array the INSERT binds. */
const SQLITE_JSON_VALUES = Array.from({ length: 11 }, (_, index) => `json_extract("value", '$[${index}]')`).join(", ");

// Two bound values, whatever the number of records: the time, and the records as one JSON array.
const SQLITE_RECORD_TEXT = `INSERT INTO "activity" (${ACTIVITY_COLUMNS}) SELECT ?, ${SQLITE_JSON_VALUES} FROM json_each(?) ORDER BY "key"`;

/** A record's values but the time, as JSON: made before a synchronous write, so that its lock is not held to make them. */
export type ReadyRecord = string;

/** SQLite's one INSERT of the ready records at `occurredAt`, in their order: run in a synchronous write or in Prisma's transaction alike. */
export const sqliteRecordQuery = (ready: readonly ReadyRecord[], occurredAt: Date): SqlQuery => ({
  sql: SQLITE_RECORD_TEXT,
  values: [occurredAt, `[${ready.join(",")}]`],
});

/** SQLite only: records the ready records at `occurredAt`, in their order, as one statement of a synchronous write. */
export function recordReadyNow(write: WriteStep, ready: readonly ReadyRecord[], occurredAt: Date): void {
  if (ready.length > 0) write.run(sqliteRecordQuery(ready, occurredAt));
}

import type { Attribution } from "@/lib/activity/actor";
import { ACTIVITY_COLUMNS, type ReadyRecord, recordReadyNow, sqliteRecordQuery } from "@/lib/activity/record-now";
import { Prisma, type WriteStep } from "@/lib/db/client";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { env } from "@/lib/server/env";

// Writes the activity record (issue 22). Always given the transaction client
// of the change it records, so that the record and the change are committed
// together or not at all: no change without its record, no record without its
// change. Callers never record a refused change (they throw first).

// An account someone makes for themself (accepting an invitation, the first
// owner at /setup) has "account.joined"; one an operator makes for another
// person (`user create`) has "account.created": the actor is not the account,
// and the record should say so at a glance. "password.reset_requested" is a
// reset link made for an account: whoever holds it can set the password, so
// the "password.reset" that may follow is read beside who asked for the link.
export const ACTIVITY_ACTIONS = [
  "plant.created",
  "plant.updated",
  "plant.deleted",
  "plant.restored",
  "token.created",
  "token.revoked",
  "webhook.created",
  "webhook.changed",
  "webhook.rotated",
  "webhook.enabled",
  "webhook.disabled",
  "webhook.deleted",
  "account.invited",
  "account.invitation_withdrawn",
  "account.joined",
  "account.created",
  "account.changed",
  "account.deactivated",
  "account.reactivated",
  "account.passkey_added",
  "account.passkey_removed",
  "account.factors_cleared",
  "password.changed",
  "password.reset_requested",
  "password.reset",
  "sign_in.succeeded",
  "sign_in.failed",
  "account.totp_enabled",
  "account.totp_disabled",
  "account.recovery_codes_renewed",
  "settings.changed",
  "account.sso_linked",
  "account.sso_unlinked",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

// An invitation is its own subject: no account exists until it is accepted
// (then "account.joined" is the account's). Its id is the link's, never its secret.
// A store-wide setting's subject is its key (the second-factor policy's, issue 24).
export type SubjectKind = "plant" | "token" | "webhook" | "account" | "invitation" | "setting";

/** Field values before and after a change, only those that changed; a created subject has only after, a deleted one only before. */
export type FieldChanges = { before?: Record<string, unknown>; after?: Record<string, unknown> };

/** What a record keeps of its change: the fields, and for a restored plant (plant.restored) the id of the plant.deleted record it was restored from. */
export type Changes = FieldChanges & { restoredFrom?: bigint };

/** One change to record: what was done to which subject, and by whom. */
export type ActivityRecord = { action: ActivityAction; subjectKind: SubjectKind; subjectId: string; changes: Changes; by: Attribution };

// On PostgreSQL, a few records bound as values: twelve bound values a row, far below its limit of 65535.
const ROWS_PER_INSERT = 500;

const COLUMNS = Prisma.raw(ACTIVITY_COLUMNS);

/** A record's values but the time, in COLUMNS' order after occurred_at. */
function values(record: ActivityRecord): unknown[] {
  const { actor, origin } = record.by;
  const userId = actor.kind === "person" || actor.kind === "token" ? actor.userId : null;
  const tokenId = actor.kind === "token" ? actor.tokenId : null;
  const name = actor.kind === "person" ? actor.name : actor.kind === "token" ? actor.label : actor.kind === "cli" ? (actor.osUser ?? "") : "";
  return [record.action, actor.kind, userId, tokenId, name, origin?.clientAddress ?? null, origin?.userAgent ?? null, origin?.requestId ?? null, record.subjectKind, record.subjectId, stringifyExactJson(record.changes)];
}

/** Records `records` in `client`'s transaction, all at `occurredAt`, in their order (ids count up). */
export async function recordActivity(client: Prisma.TransactionClient, records: readonly ActivityRecord[], occurredAt = new Date()): Promise<void> {
  if (records.length === 0) return;
  if (env().database.provider === "sqlite") {
    // One statement, whatever the number of records, with two bound values: the records travel as one JSON
    // array that SQLite reads in C. Eleven values bound a row cost a 1,000-plant batch half its speed.
    const { sql, values: bound } = sqliteRecordQuery(records.map(readyRecord), occurredAt);
    await client.$executeRawUnsafe(sql, ...bound);
    return;
  }
  for (let start = 0; start < records.length; start += ROWS_PER_INSERT) {
    const rows = records.slice(start, start + ROWS_PER_INSERT).map((record) => Prisma.sql`(${occurredAt}, ${Prisma.join(values(record))})`);
    await client.$executeRaw`INSERT INTO "activity" (${COLUMNS}) VALUES ${Prisma.join(rows)}`;
  }
}

/** SQLite only: records `records` at `occurredAt`, in their order, as one statement of a synchronous write (lib/db/client.ts, writeNow). */
export function recordActivityNow(write: WriteStep, records: readonly ActivityRecord[], occurredAt: Date): void {
  recordReadyNow(write, records.map(readyRecord), occurredAt);
}

/** A record's values but the time as SQLite's INSERT reads them (lib/activity/record-now.ts). */
export const readyRecord = (record: ActivityRecord): ReadyRecord => JSON.stringify(values(record));

/**
 * PostgreSQL only: an INSERT, for a WITH clause, that records those of
 * `records` whose subject the data-modifying query `written` (a CTE with an
 * id column) answered, at the time `at` (an expression over `written`'s
 * columns). So a change and its record are one statement, atomic without a
 * transaction's round trips. One record binds its values; more travel as one
 * JSON parameter, not eleven a row: binding is most of what a parameter costs
 * the app.
 */
export function recordWrittenSql(records: readonly ActivityRecord[], written: Prisma.Sql, at: Prisma.Sql): Prisma.Sql {
  if (records.length === 1) {
    // One record (a create, a change, a delete: the API's hot path): its values bound as they are, in a
    // SELECT over the written row, so the record is made only when the row was written. PostgreSQL reads
    // bound text faster than it parses JSON: measured with pgbench, a create with its record made 1.2 to
    // 1.4 times the statements a second this way as through json_to_recordset.
    return Prisma.sql`
      INSERT INTO "activity" (${COLUMNS})
      SELECT ${at}, ${Prisma.join(values(records[0]!).map((value) => Prisma.sql`${value}::text`))}
      FROM ${written} WHERE ${written}."id"::text = ${records[0]!.subjectId}`;
  }
  const rows = records.map((record) => {
    const [action, actor_kind, actor_user_id, actor_token_id, actor_name, client_address, user_agent, request_id, subject_kind, subject_id, changes] = values(record);
    return { action, actor_kind, actor_user_id, actor_token_id, actor_name, client_address, user_agent, request_id, subject_kind, subject_id, changes };
  });
  return Prisma.sql`
    INSERT INTO "activity" (${COLUMNS})
    SELECT ${at}, r."action", r."actor_kind", r."actor_user_id", r."actor_token_id", r."actor_name", r."client_address",
      r."user_agent", r."request_id", r."subject_kind", r."subject_id", r."changes"
    FROM ${written} JOIN json_to_recordset(${JSON.stringify(rows)}::json)
      AS r ("action" text, "actor_kind" text, "actor_user_id" text, "actor_token_id" text, "actor_name" text, "client_address" text,
            "user_agent" text, "request_id" text, "subject_kind" text, "subject_id" text, "changes" text)
      ON r."subject_id" = ${written}."id"::text`;
}

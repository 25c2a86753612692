import pg from "pg";
import { fromPostgres, postgresColumnKind, toPostgres, type Value } from "@/lib/db/copy/cell-values";
import { type CopyEnd, type CopySource, type CopyTarget, type EngineColumn, type ForeignKey, laterId, ROWS_PER_BATCH } from "@/lib/db/copy/copy-ends";
import { danglingRowsSql, quoteName, UNSTAMPED_CHANGES_SQL } from "@/lib/db/copy/copy-sql";
import { describeDatabase } from "@/lib/db/database-url";
import { connectPostgres } from "@/lib/db/postgres-connect";
import { stampChanges } from "@/lib/live/change-stamps";

// The copy's ends on PostgreSQL (issue 23). The source is read in one
// REPEATABLE READ READ ONLY transaction: one snapshot of every table, even
// with an app still writing, and the server refuses any write in it. Before
// it, the change feed's committed changes are given their positions, as any
// running instance gives them (stampCommittedChanges). The target is written
// in one transaction, its tables locked against other writers; a copy killed
// before COMMIT leaves the server nothing to keep.

const INT8_OID = 20;
const TIMESTAMP_OID = 1114;

// int8 and timestamp are read as the server's text: an int8 never becomes a float, a timestamp is
// never read in the process's time zone (cell-values.ts reads both exactly).
const EXACT_TEXT = {
  getTypeParser: (oid: number, format?: "text" | "binary") => (oid === INT8_OID || oid === TIMESTAMP_OID ? (text: string) => text : pg.types.getTypeParser(oid, format)),
} as pg.CustomTypesConfig;

// The ISO DateStyle whatever the server's default, so timestamps read as 2026-11-26 12:00:00.123.
const SESSION_OPTIONS = "-c DateStyle=ISO,YMD -c synchronous_commit=on";

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, options: SESSION_OPTIONS, types: EXACT_TEXT });
  // A connection the server ends (a restart, pg_terminate_backend) fails the query under way; unheard, it would end the process.
  client.on("error", () => {});
  await connectPostgres(client, url);
  return client;
}

export async function openPostgresSource(url: string): Promise<CopySource> {
  const client = await connect(url);
  try {
    await stampCommittedChanges(client, url);
  } catch (error) {
    await client.end();
    throw error;
  }
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  const end = postgresEnd(client, url);
  return {
    ...end,
    async foreignKeys() {
      const { rows } = await client.query<ForeignKey>(
        `SELECT child.relname AS "table", child_column.attname AS "column", parent.relname AS "parent", parent_column.attname AS "parentColumn"
         FROM pg_constraint k
         JOIN pg_class child ON child.oid = k.conrelid
         JOIN pg_class parent ON parent.oid = k.confrelid
         JOIN pg_attribute child_column ON child_column.attrelid = k.conrelid AND child_column.attnum = k.conkey[1]
         JOIN pg_attribute parent_column ON parent_column.attrelid = k.confrelid AND parent_column.attnum = k.confkey[1]
         WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace
         ORDER BY 1, 2`,
      );
      return rows;
    },
    async danglingRows(key) {
      const { rows } = await client.query<{ count: string }>(danglingRowsSql(key));
      return Number(rows[0]!.count);
    },
    async lastGeneratedId(table, column) {
      // pg_sequence_last_value: null until the sequence has given an id.
      const { rows } = await client.query<{ counter: string | null; highest: string | null }>(
        `SELECT pg_sequence_last_value(pg_get_serial_sequence($1, $2))::text AS counter, (SELECT max(${quoteName(column)}) FROM ${quoteName(table)})::text AS highest`,
        [quoteName(table), column],
      );
      const { counter, highest } = rows[0]!;
      return laterId(counter === null ? null : BigInt(counter), highest === null ? null : BigInt(highest));
    },
    async unstampedChanges() {
      const { rows } = await client.query<{ count: string }>(UNSTAMPED_CHANGES_SQL);
      return Number(rows[0]!.count);
    },
    async close() {
      await client.query("COMMIT").catch(() => {});
      await client.end();
    },
  };
}

/**
 * Gives a position to every change committed without one yet, in short transactions of their own before the
 * source's snapshot, as any running instance does (lib/live/change-stamps.ts): the positions a client resumes
 * from are then in the snapshot, and copied as they are. A change whose app stopped (or died) before stamping
 * it would otherwise be copied without one, which a SQLite target never gives. This is the one write the copy
 * makes to its source, and the source's own app would make it. A source without the feed (at an older
 * migration, which the copy then refuses) has nothing to stamp.
 */
async function stampCommittedChanges(client: pg.Client, url: string): Promise<void> {
  const { rows } = await client.query<{ feed: boolean }>("SELECT to_regclass('plant_changes') IS NOT NULL AS feed");
  if (!rows[0]!.feed) return;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // As the client's (connect): a connection the server ends is heard, not left to end the process.
  pool.on("error", () => {});
  try {
    await stampChanges(pool);
  } finally {
    await pool.end();
  }
}

export async function openPostgresTarget(url: string): Promise<CopyTarget> {
  const client = await connect(url);
  const end = postgresEnd(client, url);
  const inserts = new Map<string, string>();
  let writing: Promise<void> = Promise.resolve();
  return {
    ...end,
    async unsuitable() {
      const { rows } = await client.query<{ server_encoding: string }>("SHOW server_encoding");
      const encoding = rows[0]!.server_encoding;
      // The app's text is Unicode (names in any script, emoji): another encoding would refuse or change it.
      if (encoding !== "UTF8") return `its encoding is ${encoding}, which cannot hold every name the app may keep; create it with ENCODING 'UTF8'`;
      return null;
    },
    async begin(tables) {
      await client.query("BEGIN");
      // EXCLUSIVE: others may read, no one else writes these tables until the copy commits or rolls back;
      // an app already running on the target makes the copy give up rather than wait on it.
      await client.query("SET LOCAL lock_timeout = '10s'");
      try {
        await client.query(`LOCK TABLE ${tables.map(quoteName).join(", ")} IN EXCLUSIVE MODE`);
      } catch (error) {
        if ((error as { code?: string }).code !== "55P03") throw error;
        throw new Error("the target is in use: another process kept its tables for 10 s; stop what runs on it (an app?), then copy");
      }
    },
    insert(table, columns, rows) {
      let sql = inserts.get(table);
      if (!sql) {
        // One statement a batch: each column travels as one array parameter, cast to the column's type.
        const names = columns.map((column) => quoteName(column.name)).join(", ");
        const arrays = columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(", ");
        sql = `INSERT INTO ${quoteName(table)} (${names}) SELECT * FROM unnest(${arrays})`;
        inserts.set(table, sql);
      }
      // Encoded now, sent once the batch before it is written: the server goes from one batch to the next
      // without waiting while this one is encoded.
      const arrays = columns.map((column, index) => arrayLiteral(rows.map((row) => toPostgres(column.kind, row[index] ?? null))));
      const statement = sql;
      // After a batch failed, the transaction is aborted: the batches after it are not sent.
      const written = writing.then(() => client.query(statement, arrays)).then(() => {});
      writing = written;
      return written;
    },
    async emptyTable(table) {
      // The sequence that numbered the rows removed is set by continueGeneratedIds, lower if need be.
      await client.query(`DELETE FROM ${quoteName(table)}`);
    },
    async continueGeneratedIds(table, column, last) {
      // setval(sequence, n, false): n is the next id given. A sequence is not transactional; one moved by
      // a copy that was then interrupted is harmless: the next copy sets it again.
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), greatest($3::bigint, (SELECT max(${quoteName(column)}) FROM ${quoteName(table)}), 0) + 1, false)`,
        [quoteName(table), column, last === null ? null : last.toString()],
      );
    },
    async commit() {
      await client.query("COMMIT");
    },
    async rollback() {
      // Once no batch is under way: one statement at a time on a connection.
      await writing.catch(() => {});
      await client.query("ROLLBACK");
    },
    async close() {
      await writing.catch(() => {});
      await client.end();
    },
  };
}

/** What both ends read alike. */
function postgresEnd(client: pg.Client, url: string): Omit<CopyEnd, "close"> {
  return {
    description: describeDatabase({ provider: "postgresql", url }),
    async appliedMigrations() {
      const { rows: exists } = await client.query("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = '_prisma_migrations'");
      if (exists.length === 0) return null;
      const { rows } = await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name COLLATE "C"`,
      );
      return rows.map((row) => row.migration_name);
    },
    async tableNames() {
      const { rows } = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
      );
      return rows.map((row) => row.table_name);
    },
    async columns(table) {
      const { rows } = await client.query<{ column_name: string; udt_name: string }>(
        "SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        [table],
      );
      return rows.map((row) => {
        const kind = postgresColumnKind(row.udt_name);
        if (!kind) throw new Error(`${table}.${row.column_name} is of type ${row.udt_name}, which the app's migrations never make`);
        return { name: row.column_name, type: row.udt_name, kind };
      });
    },
    async rowCount(table) {
      const { rows } = await client.query<{ count: string }>(`SELECT count(*) FROM ${quoteName(table)}`);
      return Number(rows[0]!.count);
    },
    rows: (table, columns) => readRows(client, table, columns),
  };
}

/** A PostgreSQL array literal of the values, each element quoted (so NULL and spaces are text), as pg would make it. */
export function arrayLiteral(values: readonly (string | boolean | null)[]): string {
  let literal = "{";
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (index > 0) literal += ",";
    if (value === null || value === undefined) literal += "NULL";
    else if (typeof value === "boolean") literal += value ? "t" : "f";
    else literal += `"${QUOTED_IN_ARRAY.test(value) ? value.replace(QUOTED_IN_ARRAY_ALL, "\\$&") : value}"`;
  }
  return `${literal}}`;
}

const QUOTED_IN_ARRAY = /["\\]/;
const QUOTED_IN_ARRAY_ALL = /["\\]/g;

/** The rows through a cursor in the transaction, a batch per FETCH: never the whole table in memory. */
async function* readRows(client: pg.Client, table: string, columns: readonly EngineColumn[]): AsyncGenerator<Value[][]> {
  const places = columns.map((column) => ({ table, column: column.name }));
  await client.query(`DECLARE copy_rows NO SCROLL CURSOR FOR SELECT ${columns.map((column) => quoteName(column.name)).join(", ")} FROM ${quoteName(table)}`);
  try {
    for (;;) {
      const { rows } = await client.query<unknown[]>({ text: `FETCH FORWARD ${ROWS_PER_BATCH} FROM copy_rows`, rowMode: "array" });
      if (rows.length === 0) return;
      yield rows.map((raw) => raw.map((cell, index) => fromPostgres(columns[index]!.kind, cell, places[index]!)));
    }
  } finally {
    // After a failed statement the transaction is aborted, and the cursor with it: the failure is what to report.
    await client.query("CLOSE copy_rows").catch(() => {});
  }
}

import { dirname } from "node:path";
import Database from "better-sqlite3";
import { type Column, fromSqlite, sqliteColumnKind, toSqlite, type Value } from "@/lib/db/copy/cell-values";
import { type CopyEnd, type CopySource, type CopyTarget, type ForeignKey, laterId, ROWS_PER_BATCH } from "@/lib/db/copy/copy-ends";
import { danglingRowsSql, quoteName, UNSTAMPED_CHANGES_SQL } from "@/lib/db/copy/copy-sql";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sqlite";
import { makeFolder } from "@/lib/db/write-failure";

// The copy's ends on SQLite (issue 23). The source is opened read-only, so
// nothing the copy does can write to it, and read in one transaction: one
// snapshot of every table, even with an app still writing beside it (WAL).
// The target is written in one transaction (BEGIN IMMEDIATE: no other writer
// meanwhile); killed before COMMIT, SQLite keeps none of it.

// Foreign keys are checked as PostgreSQL checks them; a larger page cache (64 MB) keeps a million rows'
// index pages in memory while they are written.
// Rows an INSERT writes at once: 13 columns (activity's) make 6,500 bound values, far below SQLite's 32,766.
const ROWS_PER_STATEMENT = 500;

const TARGET_PRAGMAS = "PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536;";

export function openSqliteSource(path: string): CopySource {
  // readonly: SQLite itself refuses every write on this connection; fileMustExist: never a new empty file.
  const sqlite = new Database(path, { readonly: true, fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  sqlite.defaultSafeIntegers(true);
  // The snapshot begins at the transaction's first read, and every later read is of it.
  sqlite.exec("BEGIN");
  sqlite.prepare("SELECT count(*) FROM sqlite_master").get();
  const end = sqliteEnd(sqlite, path);
  return {
    ...end,
    async foreignKeys() {
      const keys: ForeignKey[] = [];
      for (const table of await end.tableNames()) {
        const rows = sqlite.pragma(`foreign_key_list(${quoteName(table)})`) as { table: string; from: string; to: string }[];
        for (const row of rows) keys.push({ table, column: row.from, parent: row.table, parentColumn: row.to });
      }
      return keys;
    },
    async danglingRows(key) {
      return Number(sqlite.prepare(danglingRowsSql(key)).pluck().get());
    },
    async lastGeneratedId(table, column) {
      const counter = sqlite.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").pluck().get(table) as bigint | undefined;
      const highest = sqlite.prepare(`SELECT max(${quoteName(column)}) FROM ${quoteName(table)}`).pluck().get() as bigint | null;
      return laterId(counter ?? null, highest);
    },
    async unstampedChanges() {
      return Number(sqlite.prepare(UNSTAMPED_CHANGES_SQL).pluck().get());
    },
    async close() {
      if (sqlite.inTransaction) sqlite.exec("COMMIT");
      sqlite.close();
    },
  };
}

/** The target: the SQLite file at `path`, made empty (with its folder) where there is none, as npm run db:migrate would make it. */
export function openSqliteTarget(path: string): CopyTarget {
  makeFolder(dirname(path));
  const sqlite = new Database(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  sqlite.defaultSafeIntegers(true);
  sqlite.exec(TARGET_PRAGMAS);
  const end = sqliteEnd(sqlite, path);
  const inserts = new Map<string, Database.Statement<unknown[]>>();
  /** The INSERT of `rows` rows at once into the table, prepared once. */
  const insertOf = (table: string, columns: readonly Column[], rows: number) => {
    const key = `${table} ${rows}`;
    let insert = inserts.get(key);
    if (!insert) {
      const values = Array.from({ length: rows }, () => `(${columns.map(() => "?").join(", ")})`).join(", ");
      insert = sqlite.prepare(`INSERT INTO ${quoteName(table)} (${columns.map((column) => quoteName(column.name)).join(", ")}) VALUES ${values}`);
      inserts.set(key, insert);
    }
    return insert;
  };
  return {
    ...end,
    async unsuitable() {
      return null;
    },
    async begin() {
      // IMMEDIATE: the write lock now, so no other process writes between the emptiness check and COMMIT.
      try {
        sqlite.exec("BEGIN IMMEDIATE");
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        throw new Error(`the target is in use: another process held its write lock for ${SQLITE_BUSY_TIMEOUT_MS / 1000} s; stop what runs on it (an app?), then copy`);
      }
    },
    async insert(table, columns, rows) {
      // Many rows a statement: a statement's run costs more than its row's B-tree writes (a million
      // plants took 7 s one row a statement, 2.5 s at 250 a statement, measured).
      const kinds = columns.map((column) => column.kind);
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        const values: unknown[] = [];
        for (const row of chunk) for (let index = 0; index < kinds.length; index++) values.push(toSqlite(kinds[index]!, row[index] ?? null));
        insertOf(table, columns, chunk.length).run(values);
      }
    },
    async emptyTable(table) {
      sqlite.prepare(`DELETE FROM ${quoteName(table)}`).run();
      // The table's AUTOINCREMENT counter counted the rows removed: continueGeneratedIds sets it from the source's alone.
      sqlite.prepare("DELETE FROM sqlite_sequence WHERE name = ?").run(table);
    },
    async continueGeneratedIds(table, _column, last) {
      // An AUTOINCREMENT table's counter is its row in sqlite_sequence, which SQLite already moved past
      // every id inserted; it is raised to the source's where that was higher, and never lowered.
      if (last === null) return;
      const raised = sqlite.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?").run(last, table, last);
      if (raised.changes === 0) sqlite.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)").run(table, last, table);
    },
    async commit() {
      sqlite.exec("COMMIT");
    },
    async rollback() {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    },
    async close() {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      sqlite.close();
    },
  };
}

/** What both ends read alike. */
function sqliteEnd(sqlite: Database.Database, path: string): Omit<CopyEnd, "close"> {
  return {
    description: path,
    async appliedMigrations() {
      const migrated = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
      if (!migrated) return null;
      return sqlite
        .prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name")
        .pluck()
        .all() as string[];
    },
    async tableNames() {
      // sqlite_sequence and the like are SQLite's own.
      return sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").pluck().all() as string[];
    },
    async columns(table) {
      const info = sqlite.pragma(`table_info(${quoteName(table)})`) as { name: string; type: string }[];
      return info.map((column) => ({ name: column.name, type: column.type, kind: sqliteColumnKind(column.type) ?? unknownType(table, column) }));
    },
    async rowCount(table) {
      return Number(sqlite.prepare(`SELECT count(*) FROM ${quoteName(table)}`).pluck().get());
    },
    rows: (table, columns) => readRows(sqlite, table, columns),
  };
}

function unknownType(table: string, column: { name: string; type: string }): never {
  throw new Error(`${table}.${column.name} is declared ${column.type || "without a type"}, which the app's migrations never declare`);
}

async function* readRows(sqlite: Database.Database, table: string, columns: readonly Column[]): AsyncGenerator<Value[][]> {
  const select = sqlite.prepare(`SELECT ${columns.map((column) => quoteName(column.name)).join(", ")} FROM ${quoteName(table)}`).raw(true);
  const places = columns.map((column) => ({ table, column: column.name }));
  let batch: Value[][] = [];
  for (const raw of select.iterate() as IterableIterator<unknown[]>) {
    batch.push(raw.map((cell, index) => fromSqlite(columns[index]!.kind, cell, places[index]!)));
    if (batch.length === ROWS_PER_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

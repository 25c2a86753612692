import { expect, it } from "vitest";
import { COPIED_TABLES, GENERATED_IDS, SKIPPED_TABLES } from "@/lib/db/copy/copied-tables";
import type { CopySource } from "@/lib/db/copy/copy-ends";
import { migrate } from "@/lib/db/migrate";
import { freshDatabases } from "@/test/support/set-up-test-database";
import type { TestDatabase } from "@/test/support/test-database";

// The copy's list of tables against the schema the migrations really make,
// on the run's engine (TEST_DATABASE): a table added by a later migration
// must be copied or skipped on purpose, and written after its parents.

const freshDatabase = freshDatabases();

async function migratedSource(): Promise<{ database: TestDatabase; source: CopySource }> {
  const database = await freshDatabase();
  await migrate(database.config);
  const { config } = database;
  const source =
    config.provider === "sqlite"
      ? (await import("@/lib/db/copy/sqlite-copy-ends")).openSqliteSource(config.path)
      : await (await import("@/lib/db/copy/postgres-copy-ends")).openPostgresSource(config.url);
  return { database, source };
}

it("copies or skips on purpose every table the migrations make, and names no other", async () => {
  const { source } = await migratedSource();
  try {
    const listed = [...COPIED_TABLES, ...Object.keys(SKIPPED_TABLES)].sort();
    expect(new Set(listed).size).toBe(listed.length);
    expect(await source.tableNames()).toEqual(listed);
  } finally {
    await source.close();
  }
});

it("writes every row's parents before it: each table after the tables its foreign keys name", async () => {
  const { source } = await migratedSource();
  try {
    const keys = await source.foreignKeys();
    expect(keys.length).toBeGreaterThan(0);
    const order = (table: string) => COPIED_TABLES.indexOf(table as (typeof COPIED_TABLES)[number]);
    // A skipped table's rows are not written, so its keys order nothing.
    for (const key of keys.filter((key) => order(key.table) >= 0)) {
      expect(order(key.table), `${key.table}.${key.column} -> ${key.parent}`).toBeGreaterThan(order(key.parent));
      expect(order(key.parent)).toBeGreaterThanOrEqual(0);
    }
    // The outbox triggers on plants write events and deliveries for enabled endpoints only: with no
    // endpoint copied yet, the plants copied write none (copied-tables.ts).
    expect(order("plants")).toBeLessThan(order("webhook_endpoints"));
  } finally {
    await source.close();
  }
});

it("carries over every id the database generates", async () => {
  const { database } = await migratedSource();
  const generated =
    database.provider === "sqlite"
      ? // AUTOINCREMENT keeps its counter in sqlite_sequence; a plain INTEGER PRIMARY KEY may reuse ids, and the app has none.
        (await database.query<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'")).map((row) => ({
          table: row.name,
          column: /"(\w+)"[^,"]*AUTOINCREMENT/.exec(row.sql)?.[1],
        }))
      : await database.query<{ table: string; column: string }>(
          `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
           WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%') ORDER BY 1, 2`,
        );
  expect(generated).toEqual(GENERATED_IDS);
});

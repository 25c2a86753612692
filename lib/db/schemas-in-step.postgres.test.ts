import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { PRISMA_FOLDERS } from "@/lib/db/database-url";
import { migrate } from "@/lib/db/migrate";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";

// Prisma needs a schema and a migrations folder per engine (prisma/sqlite,
// prisma/postgres). This keeps the two in step: the same models, and
// migrations that build the same tables. It needs both engines, so it runs in
// the PostgreSQL projects only (*.postgres.test.ts).

const freshDatabase = freshDatabases();

/** The model blocks of a schema file, comments and blank lines aside. */
function models(provider: keyof typeof PRISMA_FOLDERS): string[] {
  const text = readFileSync(path.join(PRISMA_FOLDERS[provider], "schema.prisma"), "utf8");
  return [...text.matchAll(/^model \w+ \{[^}]*\}/gm)].map(([block]) =>
    block
      .split("\n")
      .map((line) => line.replace(/\/\/.*$/, "").trimEnd())
      .filter((line) => line.trim() !== "")
      .join("\n"),
  );
}

it("holds the same models in both schemas", () => {
  expect(models("sqlite").map((block) => block.split(" ")[1])).toEqual(["Plant", "User", "AccountLink", "SsoIdentity", "TotpFactor", "RecoveryCode", "Passkey", "WebAuthnChallenge", "Setting", "ApiToken", "RateLimit", "WebhookEndpoint", "WebhookEvent", "WebhookDelivery", "Activity", "PlantChange"]);
  expect(models("postgresql")).toEqual(models("sqlite"));
});

type Column = { table: string; column: string; type: string; nullable: boolean; primaryKey: boolean };
type Index = { table: string; name: string; columns: string; unique: boolean };
type ForeignKey = { table: string; column: string; references: string; onDelete: string };
type Shape = { columns: Column[]; indexes: Index[]; foreignKeys: ForeignKey[] };

// The one family each engine's declared type belongs to (Prisma's BigInt, String, DateTime).
const TYPE_FAMILIES: Record<string, string> = {
  BIGINT: "int64",
  bigint: "int64",
  TEXT: "text",
  text: "text",
  DATETIME: "timestamp",
  "timestamp without time zone": "timestamp",
  INTEGER: "int32",
  integer: "int32",
  BOOLEAN: "boolean",
  boolean: "boolean",
};

const byKey = <T extends { table: string }>(rows: T[], key: (row: T) => string) => rows.sort((a, b) => `${a.table}.${key(a)}`.localeCompare(`${b.table}.${key(b)}`));

async function sqliteShape(database: TestDatabase): Promise<Shape> {
  const tables = (await database.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'")).map((row) => row.name);
  const shape: Shape = { columns: [], indexes: [], foreignKeys: [] };
  for (const table of tables) {
    for (const row of await database.query<{ name: string; type: string; notnull: bigint; pk: bigint }>(`PRAGMA table_info("${table}")`)) {
      // An INTEGER PRIMARY KEY is the rowid: 64 bits, as a BIGINT identity is.
      const type = row.type === "INTEGER" && row.pk > 0n ? "int64" : (TYPE_FAMILIES[row.type] ?? row.type);
      shape.columns.push({ table, column: row.name, type, nullable: row.notnull === 0n, primaryKey: row.pk > 0n });
    }
    for (const index of await database.query<{ name: string; unique: bigint; origin: string }>(`PRAGMA index_list("${table}")`)) {
      if (index.origin === "pk") continue;
      const columns = (await database.query<{ name: string }>(`PRAGMA index_info("${index.name}")`)).map((row) => row.name).join(",");
      shape.indexes.push({ table, name: index.name, columns, unique: index.unique === 1n });
    }
    for (const key of await database.query<{ from: string; table: string; to: string; on_delete: string }>(`PRAGMA foreign_key_list("${table}")`)) {
      shape.foreignKeys.push({ table, column: key.from, references: `${key.table}.${key.to}`, onDelete: key.on_delete });
    }
  }
  return { columns: byKey(shape.columns, (c) => c.column), indexes: byKey(shape.indexes, (i) => i.name), foreignKeys: byKey(shape.foreignKeys, (k) => k.column) };
}

async function postgresShape(database: TestDatabase): Promise<Shape> {
  const columns = await database.query<{ table: string; column: string; type: string; nullable: string; primary_key: boolean }>(`
    SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type, c.is_nullable AS nullable,
           EXISTS (SELECT 1 FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k USING (constraint_name, table_name)
                   WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_name = c.table_name AND k.column_name = c.column_name) AS primary_key
    FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name NOT LIKE '\\_%'`);
  const indexes = await database.query<{ table: string; name: string; columns: string; unique: boolean }>(`
    SELECT t.relname AS table, i.relname AS name, string_agg(a.attname, ',' ORDER BY array_position(x.indkey, a.attnum)) AS columns, x.indisunique AS unique
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (x.indkey)
    WHERE n.nspname = 'public' AND NOT x.indisprimary AND t.relname NOT LIKE '\\_%'
    GROUP BY t.relname, i.relname, x.indisunique`);
  const foreignKeys = await database.query<{ table: string; column: string; references: string; on_delete: string }>(`
    SELECT k.table_name AS table, k.column_name AS column, u.table_name || '.' || u.column_name AS references, r.delete_rule AS on_delete
    FROM information_schema.referential_constraints r
    JOIN information_schema.key_column_usage k ON k.constraint_name = r.constraint_name
    JOIN information_schema.constraint_column_usage u ON u.constraint_name = r.unique_constraint_name
    WHERE k.table_schema = 'public'`);
  return {
    columns: byKey(
      columns.map((row) => ({ table: row.table, column: row.column, type: TYPE_FAMILIES[row.type] ?? row.type, nullable: row.nullable === "YES", primaryKey: row.primary_key })),
      (c) => c.column,
    ),
    indexes: byKey(indexes, (i) => i.name),
    foreignKeys: byKey(
      foreignKeys.map((row) => ({ table: row.table, column: row.column, references: row.references, onDelete: row.on_delete })),
      (k) => k.column,
    ),
  };
}

it("builds the same tables, columns, keys and indexes on both engines from their migrations", async () => {
  const sqlite = await makeTestDatabase("sqlite");
  const postgres = await freshDatabase();
  try {
    await migrate(sqlite.config);
    await migrate(postgres.config);
    const expected = await sqliteShape(sqlite);
    expect(expected.columns.map((column) => `${column.table}.${column.column}`)).toContain("plants.id");
    expect(expected.columns.find((column) => column.column === "id" && column.table === "plants")).toMatchObject({ type: "int64", primaryKey: true });
    expect(await postgresShape(postgres)).toEqual(expected);
  } finally {
    await sqlite.drop();
  }
});

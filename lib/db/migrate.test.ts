import path from "node:path";
import { expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { checksum, listMigrations, type Migration } from "@/lib/db/migrations";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { tableNames, type TestDatabase } from "@/test/support/test-database";

// The migrator on the run's engine (TEST_DATABASE), on a real database.

const freshDatabase = freshDatabases();

type MigrationRow = {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: unknown;
  finished_at: unknown;
  logs: string | null;
  rolled_back_at: unknown;
  applied_steps_count: unknown;
};

const migrationRows = (database: TestDatabase) => database.query<MigrationRow>('SELECT * FROM "_prisma_migrations" ORDER BY started_at');

/**
 * A recorded time as Prisma's engine writes it for the provider: Unix
 * milliseconds in an integer column on SQLite, a timestamptz on PostgreSQL.
 */
function recordedTime(database: TestDatabase, value: unknown): number {
  if (database.provider === "sqlite") {
    expect(typeof value).toBe("bigint");
    return Number(value);
  }
  expect(value).toBeInstanceOf(Date);
  return (value as Date).getTime();
}

it("creates the schema on an empty database and records it as prisma migrate deploy does", async () => {
  const database = await freshDatabase();
  const before = Date.now() - 1;
  const migrations = listMigrations(database.provider);
  expect(await migrate(database.config)).toEqual(migrations.map((migration) => migration.name));

  const rows = await migrationRows(database);
  expect(rows.map((row) => row.migration_name)).toEqual(migrations.map((migration) => migration.name));
  for (const [index, row] of rows.entries()) {
    expect(row.checksum).toBe(checksum(migrations[index]!.script));
    expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const startedAt = recordedTime(database, row.started_at);
    expect(startedAt).toBeGreaterThanOrEqual(before);
    expect(recordedTime(database, row.finished_at)).toBeGreaterThanOrEqual(startedAt);
    expect(Number(row.applied_steps_count)).toBe(1);
    expect(row.logs).toBeNull();
    expect(row.rolled_back_at).toBeNull();
  }
  expect(await tableNames(database)).toEqual([
    "_prisma_migrations",
    "account_links",
    "activity",
    "api_tokens",
    "passkeys",
    "plant_changes",
    "plants",
    "rate_limits",
    "recovery_codes",
    "settings",
    "sso_identities",
    "totp_factors",
    "users",
    "webauthn_challenges",
    "webhook_deliveries",
    "webhook_endpoints",
    "webhook_events",
  ]);
  if (database.provider === "sqlite") expect(await database.query("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
});

it("creates a SQLite database's directory when it is missing", async () => {
  const { dataDir } = await freshDatabase();
  const file = path.join(dataDir, "new", "dir", "plants.db");
  expect(await migrate({ provider: "sqlite", path: file })).toHaveLength(listMigrations("sqlite").length);
});

it("applies nothing twice", async () => {
  const database = await freshDatabase();
  await migrate(database.config);
  expect(await migrate(database.config)).toEqual([]);
  expect(await migrationRows(database)).toHaveLength(listMigrations(database.provider).length);
});

it("applies only what is new, in name order", async () => {
  const database = await freshDatabase();
  const existing = listMigrations(database.provider);
  await migrate(database.config, existing);
  const later: Migration[] = [
    { name: "29990101000001_second", script: 'CREATE TABLE "b" ("x" TEXT);' },
    { name: "29990101000000_first", script: 'CREATE TABLE "a" ("x" TEXT);' },
  ];
  const all = [...existing, ...later].sort((a, b) => a.name.localeCompare(b.name));
  expect(await migrate(database.config, all)).toEqual(["29990101000000_first", "29990101000001_second"]);
});

it("rolls a failing migration back whole and records nothing", async () => {
  const database = await freshDatabase();
  const existing = listMigrations(database.provider);
  await migrate(database.config, existing);
  const broken = { name: "29990101000000_broken", script: 'CREATE TABLE "c" ("x" TEXT);\nINSERT INTO "nope" VALUES (1);' };
  await expect(migrate(database.config, [...existing, broken])).rejects.toThrow(/nope/);
  expect(await tableNames(database)).not.toContain("c");
  expect(await migrationRows(database)).toHaveLength(existing.length);
});

it("refuses to go on past a migration that failed earlier, as Prisma does", async () => {
  const database = await freshDatabase();
  await migrate(database.config);
  await database.query('UPDATE "_prisma_migrations" SET finished_at = NULL');
  await expect(migrate(database.config)).rejects.toThrow(/migration 20261122000000_init failed earlier; resolve it/);
});

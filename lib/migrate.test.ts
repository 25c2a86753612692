import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { checksum, listMigrations, migrate, MIGRATIONS_DIR } from "@/lib/migrate";

function freshDatabase(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "plant-store-migrate-")), "test.db");
}

type MigrationRow = {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: number;
  finished_at: number;
  logs: string | null;
  rolled_back_at: number | null;
  applied_steps_count: number;
};

function migrationRows(file: string): MigrationRow[] {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare('SELECT * FROM "_prisma_migrations" ORDER BY started_at').all() as MigrationRow[];
  } finally {
    sqlite.close();
  }
}

describe("migrate", () => {
  it("creates the schema on an empty database and records it as prisma migrate deploy does", () => {
    const file = freshDatabase();
    const before = Date.now();
    const names = listMigrations().map((migration) => migration.name);
    expect(migrate(file)).toEqual(names);

    const rows = migrationRows(file);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const script = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"), "utf8");
      expect(row.checksum).toBe(checksum(script));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Prisma's engine binds these as Unix milliseconds.
      expect(typeof row.started_at).toBe("number");
      expect(row.started_at).toBeGreaterThanOrEqual(before);
      expect(row.finished_at).toBeGreaterThanOrEqual(row.started_at);
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
    }

    const sqlite = new Database(file, { readonly: true });
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(["_prisma_migrations", "api_tokens", "plants", "users"]);
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    sqlite.close();
  });

  it("creates the database's directory when it is missing", () => {
    const file = path.join(path.dirname(freshDatabase()), "new", "dir", "plants.db");
    expect(migrate(file)).toHaveLength(listMigrations().length);
  });

  it("applies nothing twice", () => {
    const file = freshDatabase();
    migrate(file);
    expect(migrate(file)).toEqual([]);
    expect(migrationRows(file)).toHaveLength(listMigrations().length);
  });

  it("applies only what is new, in name order", () => {
    const file = freshDatabase();
    const existing = listMigrations();
    migrate(file, existing);
    const later = [
      { name: "29990101000001_second", script: 'CREATE TABLE "b" ("x" TEXT);' },
      { name: "29990101000000_first", script: 'CREATE TABLE "a" ("x" TEXT);' },
    ];
    expect(migrate(file, [...existing, ...later].sort((a, b) => a.name.localeCompare(b.name)))).toEqual([
      "29990101000000_first",
      "29990101000001_second",
    ]);
  });

  it("rolls a failing migration back whole and records nothing", () => {
    const file = freshDatabase();
    const existing = listMigrations();
    migrate(file, existing);
    const broken = { name: "29990101000000_broken", script: 'CREATE TABLE "c" ("x" TEXT);\nINSERT INTO "nope" VALUES (1);' };
    expect(() => migrate(file, [...existing, broken])).toThrow(/no such table: nope/);
    const sqlite = new Database(file, { readonly: true });
    expect(sqlite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'c'").pluck().get()).toBe(0);
    sqlite.close();
    expect(migrationRows(file)).toHaveLength(existing.length);
  });

  it("applies each migration once when several processes start at the same moment", async () => {
    const file = freshDatabase();
    const run = promisify(execFile);
    const cli = path.resolve(import.meta.dirname, "cli/db-migrate.ts");
    const tsx = path.resolve(import.meta.dirname, "../node_modules/tsx/dist/cli.mjs");
    await Promise.all(
      [1, 2, 3].map(() => run(process.execPath, [tsx, cli], { env: { ...process.env, DATABASE_URL: `file:${file}`, DATA_DIR: path.dirname(file) } })),
    );
    expect(migrationRows(file).map((row) => row.migration_name)).toEqual(listMigrations().map((migration) => migration.name));
  });
});

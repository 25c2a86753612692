import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/sqlite";

// Applies prisma/migrations/*/migration.sql and records each one in
// _prisma_migrations exactly as `prisma migrate deploy` does (same table, a
// UUID id, the SHA-256 of the script, times in Unix milliseconds, one step), so
// the Prisma CLI, where it can run, sees the same history and applies nothing
// twice. We cannot call the CLI itself: it downloads a schema engine first,
// which fails on offline machines.

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

// Prisma's own DDL for the table (schema-engine, sqlite flavour).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

type Migration = { name: string; script: string };

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  // The migrations are read from the checkout at run time, not bundled.
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, script: readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8") }));
}

/** Applies what is pending, in one transaction; returns the names applied. */
export function migrate(databasePath: string, migrations = listMigrations()): string[] {
  mkdirSync(path.dirname(databasePath), { recursive: true });
  const sqlite = new Database(databasePath, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    sqlite.pragma("journal_mode = WAL");
    // Prisma runs migrations with foreign keys off, and its table rebuilds rely
    // on it (the pragma is a no-op inside a transaction, so set it here);
    // foreign_key_check below still refuses a migration that leaves a dangling row.
    sqlite.pragma("foreign_keys = OFF");
    // IMMEDIATE takes the write lock first, so two processes starting at once
    // apply each migration once: the second waits, then finds nothing pending.
    return sqlite.transaction(() => applyPending(sqlite, migrations)).immediate();
  } finally {
    sqlite.close();
  }
}

function applyPending(sqlite: Database.Database, migrations: Migration[]): string[] {
  sqlite.exec(CREATE_MIGRATIONS_TABLE);
  const rows = sqlite
    .prepare(`SELECT migration_name AS name, finished_at AS finishedAt FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`)
    .all() as { name: string; finishedAt: unknown }[];
  const failed = rows.find((row) => row.finishedAt === null);
  if (failed) {
    throw new Error(`migration ${failed.name} failed earlier; resolve it (prisma migrate resolve) before starting`);
  }
  const applied = new Set(rows.map((row) => row.name));
  const pending = migrations.filter((migration) => !applied.has(migration.name));
  const record = sqlite.prepare(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
  );
  for (const migration of pending) {
    const startedAt = Date.now();
    sqlite.exec(migration.script);
    record.run(randomUUID(), checksum(migration.script), migration.name, startedAt, Date.now());
  }
  const violations = sqlite.pragma("foreign_key_check") as unknown[];
  if (violations.length > 0) throw new Error(`migrations left ${violations.length} rows breaking foreign keys`);
  return pending.map((migration) => migration.name);
}

export function checksum(script: string): string {
  return createHash("sha256").update(script, "utf8").digest("hex");
}

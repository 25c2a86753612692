import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type DatabaseProvider, PRISMA_FOLDERS } from "@/lib/db/database-url";

// The migrations of each database: prisma/<provider>/migrations/*/migration.sql,
// applied in name order and recorded in _prisma_migrations exactly as
// `prisma migrate deploy` records them for that provider (a UUID id, the
// SHA-256 of the script, start and finish times, one step). The Prisma CLI,
// where it can run, then sees the same history and applies nothing twice. We
// cannot call the CLI itself: it downloads a schema engine first, which fails
// on offline machines.

export type Migration = { name: string; script: string };

export function migrationsDir(provider: DatabaseProvider): string {
  return path.join(process.cwd(), PRISMA_FOLDERS[provider], "migrations");
}

export function listMigrations(provider: DatabaseProvider): Migration[] {
  const dir = migrationsDir(provider);
  // The migrations are read from the checkout at run time, not bundled.
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, script: readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8") }));
}

export function checksum(script: string): string {
  return createHash("sha256").update(script, "utf8").digest("hex");
}

/** The migrations not yet applied; refuses to go on past one that failed earlier, as Prisma does (P3009). */
export function pendingMigrations(migrations: readonly Migration[], recorded: readonly { name: string; finished: boolean }[]): Migration[] {
  const failed = recorded.find((row) => !row.finished);
  if (failed) throw new Error(`migration ${failed.name} failed earlier; resolve it (prisma migrate resolve) before starting`);
  const applied = new Set(recorded.map((row) => row.name));
  return migrations.filter((migration) => !applied.has(migration.name));
}

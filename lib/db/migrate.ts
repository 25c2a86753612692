import type { DatabaseConfig } from "@/lib/db/database-url";
import { listMigrations, type Migration } from "@/lib/db/migrations";

/** Applies the configured database's pending migrations, all in one transaction; returns the names applied. */
export async function migrate(database: DatabaseConfig, migrations: Migration[] = listMigrations(database.provider)): Promise<string[]> {
  // Each engine's driver loads only where it is used: pg alone takes about 0.1 s (issue 20, the CLIs).
  if (database.provider === "sqlite") return (await import("@/lib/db/sqlite")).migrateSqlite(database.path, migrations);
  return (await import("@/lib/db/postgres")).migratePostgres(database.url, migrations);
}

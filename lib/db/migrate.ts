import type { DatabaseConfig } from "@/lib/db/database-url";
import { listMigrations, type Migration } from "@/lib/db/migrations";
import { migratePostgres } from "@/lib/db/postgres";
import { migrateSqlite } from "@/lib/db/sqlite";

/** Applies the configured database's pending migrations, all in one transaction; returns the names applied. */
export async function migrate(database: DatabaseConfig, migrations: Migration[] = listMigrations(database.provider)): Promise<string[]> {
  return database.provider === "sqlite" ? migrateSqlite(database.path, migrations) : migratePostgres(database.url, migrations);
}

import { statSync } from "node:fs";
import Database from "better-sqlite3";
import { listMigrations } from "@/lib/db/migrations";
import { checkSqliteFile } from "@/lib/db/sqlite-snapshot";

// What restore asks of a backup before it replaces a database with it (issue
// 23): a sound SQLite file, Plant Store's, and of a build no newer than this
// one. Checked on restore's own copy of the backup, the bytes that will be put
// in place: the backup itself is only ever read, by the copy, so no check can
// leave anything beside it (SQLite opening a WAL-mode file, even read-only,
// makes -wal and -shm files next to it).

export class RestoreRefusal extends Error {
  override name = "RestoreRefusal";
}

export type Restorable = {
  plants: number;
  /** The newest migration the backup records. */
  latestMigration: string;
  /** This checkout's migrations the backup lacks: the app applies them when it starts on it. */
  pendingMigrations: string[];
};

/**
 * Checks `copy`, a copy of the backup `label` names in messages, and leaves it
 * one file in rollback mode (a WAL copied beside it is folded in). Throws
 * RestoreRefusal when it is not one to restore.
 */
export async function checkRestorable(copy: string, label: string): Promise<Restorable> {
  try {
    return await inspect(copy, label);
  } catch (error) {
    // Damage SQLite meets before its integrity check can report it (in the schema, say) is as much damage.
    const code = error instanceof Error && "code" in error ? String(error.code) : "";
    if (code === "SQLITE_NOTADB") throw new RestoreRefusal(`${label} is not a SQLite database`);
    if (code.startsWith("SQLITE_CORRUPT")) throw new RestoreRefusal(`${label} is damaged: ${(error as Error).message}`);
    throw error;
  }
}

async function inspect(copy: string, label: string): Promise<Restorable> {
  toOneFile(copy);
  // SQLite takes an empty file for a database with nothing in it: to an operator it is no database at all.
  if (statSync(copy).size === 0) throw new RestoreRefusal(`${label} is empty (0 bytes): not a SQLite database, so no backup`);
  const problems = await checkSqliteFile(copy);
  if (problems.length !== 1 || problems[0] !== "ok") {
    throw new RestoreRefusal(`${label} is damaged: SQLite's integrity check found ${problems.slice(0, 5).join("; ")}`);
  }
  const connection = new Database(copy, { readonly: true, fileMustExist: true });
  try {
    const tableCount = connection.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
    if (tableCount === 0) throw new RestoreRefusal(`${label} is a SQLite database with no tables at all: no backup of Plant Store`);
    const tables = new Set(
      (connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('_prisma_migrations', 'plants')").all() as { name: string }[]).map((row) => row.name),
    );
    if (tables.size < 2) throw new RestoreRefusal(`${label} is a SQLite database, but not Plant Store's: it has no _prisma_migrations or no plants table`);
    const recorded = connection
      .prepare(`SELECT migration_name AS name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY migration_name`)
      .all() as { name: string; finished: number }[];
    const known = listMigrations("sqlite").map((migration) => migration.name);
    const unknown = recorded.filter((row) => !known.includes(row.name)).map((row) => row.name);
    if (recorded.length === 0 || unknown.length === recorded.length) {
      throw new RestoreRefusal(`${label} is a SQLite database, but not Plant Store's: it records none of this checkout's migrations`);
    }
    if (unknown.length > 0) {
      // The app would start on it and fail on the tables it does not know, or worse, write past them.
      throw new RestoreRefusal(
        `${label} comes from a newer build of Plant Store: it records migrations this checkout does not have (${unknown.join(", ")}). ` +
          "Restore it with that build or a newer one.",
      );
    }
    const failed = recorded.find((row) => row.finished !== 1);
    if (failed) throw new RestoreRefusal(`${label} records migration ${failed.name} as failed: the app would not start on it`);
    const applied = new Set(recorded.map((row) => row.name));
    const { plants } = connection.prepare("SELECT count(*) AS plants FROM plants").get() as { plants: number };
    return { plants, latestMigration: recorded.at(-1)!.name, pendingMigrations: known.filter((name) => !applied.has(name)) };
  } finally {
    connection.close();
  }
}

/** Takes the copy out of WAL mode: SQLite folds a -wal beside it into it and removes it. */
function toOneFile(copy: string): void {
  const connection = new Database(copy, { fileMustExist: true, timeout: 0 });
  try {
    connection.pragma("journal_mode = DELETE");
  } finally {
    connection.close();
  }
}

import Database from "better-sqlite3";

// Direct access to a test app's SQLite file, to check what was really stored.

export function withDatabase<T>(file: string, action: (sqlite: Database.Database) => T): T {
  const sqlite = new Database(file);
  sqlite.defaultSafeIntegers(true);
  try {
    return action(sqlite);
  } finally {
    sqlite.close();
  }
}

export type StoredPlant = { id: bigint; name: string; tag: string | null };

export function storedPlants(file: string): StoredPlant[] {
  return withDatabase(file, (sqlite) => sqlite.prepare("SELECT id, name, tag FROM plants ORDER BY id").all() as StoredPlant[]);
}

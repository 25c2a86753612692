import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { type DatabaseConfig, type DatabaseProvider, defaultDatabasePath } from "../../lib/db/database-url";
import { stampChanges } from "../../lib/live/change-stamps";

// The one way tests make a database, on either engine: a fresh data directory
// and, with PostgreSQL, a fresh database on the test server, dropped again
// when the test is done. (Relative imports: playwright.config.ts loads this
// file too.)

export type TestDatabase = {
  provider: DatabaseProvider;
  /** The database as the app's configuration names it. */
  config: DatabaseConfig;
  /** The app's DATA_DIR: always fresh (the SQLite file, a generated secret). */
  dataDir: string;
  /** DATABASE_URL for the app and the CLIs. */
  url: string;
  /** What the app and the CLIs need to use this database: DATA_DIR, DATABASE_URL and, with PostgreSQL, the shared secrets. */
  env: Record<string, string>;
  /** Direct access, to check what was really stored: $1, $2... placeholders; int64 columns read as bigint. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements on one connection, answering nothing (to change a session setting first, say). */
  exec(script: string): Promise<void>;
  drop(): Promise<void>;
};

/** The engine of this test run: TEST_DATABASE=postgresql, or SQLite by default. */
export function testDatabaseProvider(): DatabaseProvider {
  const chosen = process.env.TEST_DATABASE || "sqlite";
  if (chosen === "sqlite" || chosen === "postgresql") return chosen;
  throw new Error(`TEST_DATABASE=${chosen}: use sqlite or postgresql`);
}

/** A server where the tests may create databases: TEST_POSTGRES_URL, or the local one with trust authentication. */
export function testPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
}

/** Every test database of one run shares this prefix, so what a crashed test leaves behind can be swept. */
export function testDatabasePrefix(): string {
  process.env.PLANT_STORE_TEST_RUN ||= randomBytes(4).toString("hex");
  return `plant_store_test_${process.env.PLANT_STORE_TEST_RUN}_`;
}

let made = 0;

/** What a process needs to reach a test database it did not make (the shared app's, in a test worker): all of TestDatabase that survives JSON. */
export type TestDatabasePlace = Pick<TestDatabase, "provider" | "config" | "dataDir" | "url" | "env">;

/**
 * A fresh database of the engine, empty, or on PostgreSQL `migrated` (every
 * migration applied, nothing else: what a test of lib/ starts from), a copy of
 * a template migrated once per run rather than migrated anew: about a second
 * per test file (issue 31). SQLite migrates in a fifth of a second: its files
 * start empty and their tests migrate them.
 */
export async function makeTestDatabase(provider = testDatabaseProvider(), { migrated = false }: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "plant-store-test-"));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (provider === "sqlite") {
    const file = defaultDatabasePath(dataDir);
    const place: TestDatabasePlace = { provider, config: { provider, path: file }, dataDir, url: `file:${file}`, env: { DATA_DIR: dataDir, DATABASE_URL: `file:${file}` } };
    return testDatabaseAt(place, async () => removeDataDir());
  }
  const name = `${testDatabasePrefix()}${process.pid}_${made++}`;
  const template = migrated ? ` TEMPLATE "${await migratedPostgresTemplate()}"` : "";
  await withPostgres(testPostgresUrl(), (client) => client.query(`CREATE DATABASE "${name}"${template}`));
  const url = new URL(testPostgresUrl());
  url.pathname = `/${name}`;
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: url.href,
    // PostgreSQL means several instances may share the database: the secrets are set, never generated.
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
  return testDatabaseAt({ provider, config: { provider, url: url.href }, dataDir, url: url.href, env }, async () => {
    await dropPostgresDatabase(name);
    removeDataDir();
  });
}

/**
 * A PostgreSQL database with every migration applied, made once per run (its
 * name has the run's prefix: the run's teardown drops it) by whichever process
 * asks first, under an advisory lock. Nothing stays connected to it, as
 * CREATE DATABASE ... TEMPLATE requires.
 */
async function migratedPostgresTemplate(): Promise<string> {
  const name = `${testDatabasePrefix()}migrated`;
  await withPostgres(testPostgresUrl(), async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    try {
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (rowCount) return;
      await client.query(`CREATE DATABASE "${name}_making"`);
      const url = new URL(testPostgresUrl());
      url.pathname = `/${name}_making`;
      const { migrate } = await import("../../lib/db/migrate");
      await migrate({ provider: "postgresql", url: url.href });
      // Renamed once whole: a process that finds the name finds it migrated.
      await client.query(`ALTER DATABASE "${name}_making" RENAME TO "${name}"`);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [name]);
    }
  });
  return name;
}

/**
 * A TestDatabase for the database a place names, with the direct access of
 * either engine; `drop` is what dropping it means to this process. The one
 * making a database and a worker given its place (test/support/shared-app.ts) share this.
 */
export function testDatabaseAt(place: TestDatabasePlace, drop: () => Promise<void>): TestDatabase {
  const { config } = place;
  if (config.provider === "sqlite") {
    return {
      ...place,
      query: (sql, params) => querySqlite(config.path, sql, params),
      exec: async (script) => withSqlite(config.path, (sqlite) => void sqlite.exec(script)),
      drop,
    };
  }
  return {
    ...place,
    query: async (sql, params) => (await withPostgres(config.url, (client) => client.query(sql, params))).rows,
    exec: async (script) => void (await withPostgres(config.url, (client) => client.query(script))),
    drop,
  };
}

// int8 columns (BIGINT ids, count(*)) as bigint, as better-sqlite3's safe integers read them.
const EXACT_INT8 = { getTypeParser: (oid: number, format?: "text" | "binary") => (oid === 20 ? BigInt : pg.types.getTypeParser(oid, format)) } as pg.CustomTypesConfig;

export async function withPostgres<T>(url: string, action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, types: EXACT_INT8 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${new URL(url).host} (${error instanceof Error ? error.message : String(error)}). ` +
        "The PostgreSQL half of the tests needs a server where it may create databases: start one, or point " +
        "TEST_POSTGRES_URL at one, e.g. TEST_POSTGRES_URL=postgresql://user:password@host:5432/postgres",
    );
  }
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  // FORCE: an app under test may still hold pooled connections.
  await withPostgres(testPostgresUrl(), (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Runs one statement on the database a DATABASE_URL names ($1, $2... placeholders), for a process that did not make it (Playwright's workers). */
export async function queryDatabaseAt<Row = Record<string, unknown>>(provider: DatabaseProvider, url: string, sql: string, params?: unknown[]): Promise<Row[]> {
  if (provider === "sqlite") return querySqlite<Row>(url.replace(/^file:/, ""), sql, params);
  return (await withPostgres(url, (client) => client.query(sql, params))).rows as Row[];
}

async function querySqlite<Row>(file: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  return withSqlite(file, (sqlite) => {
    const statement = sqlite.prepare(sql.replace(/\$\d+/g, "?"));
    if (statement.reader) return statement.all(...params) as Row[];
    statement.run(...params);
    return [];
  });
}

function withSqlite<T>(file: string, action: (sqlite: Database.Database) => T): T {
  const sqlite = new Database(file);
  sqlite.defaultSafeIntegers(true);
  try {
    return action(sqlite);
  } finally {
    sqlite.close();
  }
}

export type StoredPlant = { id: bigint; name: string; tag: string | null };

/** The stored plants in id order: all of them, or (on a database several test files share) those with ids from `from` to `to`. */
export function storedPlants(database: TestDatabase, ids?: { from: bigint; to: bigint }): Promise<StoredPlant[]> {
  if (ids === undefined) return database.query<StoredPlant>("SELECT id, name, tag FROM plants ORDER BY id");
  return database.query<StoredPlant>("SELECT id, name, tag FROM plants WHERE id BETWEEN $1 AND $2 ORDER BY id", [ids.from, ids.to]);
}

/** The tables of a test database, by name. */
export async function tableNames(database: TestDatabase): Promise<string[]> {
  const sql =
    database.provider === "sqlite"
      ? // sqlite_sequence is SQLite's own (AUTOINCREMENT's counters), not the app's.
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name";
  return (await database.query<{ name: string }>(sql)).map((row) => row.name);
}

/**
 * What the app's instances do on PostgreSQL once plants' changes are committed, for a test that wrote them
 * itself: gives each its position in the change feed (lib/live/change-stamps.ts). SQLite gives it at insert.
 */
export async function stampPlantChanges(database: TestDatabase): Promise<void> {
  if (database.config.provider !== "postgresql") return;
  const pool = new pg.Pool({ connectionString: database.config.url, max: 1 });
  try {
    await stampChanges(pool);
  } finally {
    await pool.end();
  }
}

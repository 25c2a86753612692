import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations } from "@/lib/db/migrations";
import { migrateSqlite } from "@/lib/db/sqlite";
import { parseExactJson } from "@/lib/json/exact-json";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { shell } from "@/test/support/shell";
import { dropPostgresDatabase, type StoredPlant, storedPlants, type TestDatabase, testDatabaseAt, testDatabaseProvider } from "@/test/support/test-database";
import { startWorkerProcess } from "@/test/support/worker-process";

// npm run --silent db -- restore FILE, as a process against real files and
// the real app (issue 23): it replaces a stopped app's database with a checked
// backup and keeps the one it replaced beside it; it refuses while the app (or
// any process) has the database open, and refuses a backup that is damaged,
// not Plant Store's, or from a newer build, changing nothing; it never touches
// the backup. On PostgreSQL it shows the pg_restore commands, which, run as
// printed, restore a dump into an empty database.

const freshDatabase = freshDatabases();
const sqlite = testDatabaseProvider() === "sqlite";

const folder = mkdtempSync(path.join(tmpdir(), "plant-store-restore-cli-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const BACKED_UP: StoredPlant[] = [
  { id: -9223372036854775808n, name: "Lowest", tag: null },
  { id: 1n, name: "Monstera", tag: "aroid" },
  { id: 9007199254740993n, name: "Past 2^53", tag: null },
  { id: 9223372036854775807n, name: "Highest", tag: "edge" },
];
const LATER: StoredPlant = { id: 9007199254740995n, name: "Added after the backup", tag: null };

const db = (database: Pick<TestDatabase, "env">, args: string[], env?: Record<string, string>) => runCli("db", args, { database, env });
const databaseFile = (database: TestDatabase) => path.join(database.dataDir, "plant-store.db");

/** A file's bytes as a digest, or null when it is not there. */
function digest(file: string): string | null {
  return existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : null;
}

/** The database as it lies on disk: the file and its WAL, byte for byte, and what else is in its folder. */
function onDisk(database: TestDatabase) {
  const file = databaseFile(database);
  return { file: digest(file), wal: digest(`${file}-wal`), inode: statSync(file).ino, folder: readdirSync(database.dataDir).filter((name) => name !== `plant-store.db-shm`).sort() };
}

function plantsIn(file: string): StoredPlant[] {
  const connection = new Database(file, { readonly: true, fileMustExist: true });
  connection.defaultSafeIntegers(true);
  try {
    return connection.prepare("SELECT id, name, tag FROM plants ORDER BY id").all() as StoredPlant[];
  } finally {
    connection.close();
  }
}

describe.skipIf(!sqlite)("db restore on SQLite", () => {
  let store: TestDatabase;
  let app: AppServer;
  let token: string;
  const backup = path.join(folder, "taken-while-running.db");
  let backupBytes: Buffer;
  let backupModified: number;

  async function post(plant: StoredPlant): Promise<void> {
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ id: "ID", name: plant.name, ...(plant.tag !== null && { tag: plant.tag }) }).replace('"ID"', String(plant.id)),
    });
    expect(response.status, await response.text()).toBe(200);
  }

  async function get(id: bigint): Promise<{ status: number; plant?: StoredPlant }> {
    const response = await fetch(`${app.url}/plants/${id}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) return { status: response.status };
    const { id: storedId, name, tag } = parseExactJson(await response.text()) as { id: bigint; name: string; tag?: string | null };
    return { status: 200, plant: { id: storedId, name, tag: tag ?? null } };
  }

  beforeAll(async () => {
    store = await freshDatabase();
    app = await startApp({ database: store });
    token = await createToken(store, ["plants:write", "plants:read"]);
    for (const plant of BACKED_UP) await post(plant);
    const taken = await db(store, ["backup", backup]);
    expect(taken, taken.stderr).toMatchObject({ code: 0 });
    await post(LATER);
    backupBytes = readFileSync(backup);
    backupModified = statSync(backup).mtimeMs;
  });

  afterAll(async () => {
    await app?.stop();
  });

  /** The database once the app has checkpointed what it wrote and sits idle: two looks a moment apart agree. */
  async function settled(): Promise<ReturnType<typeof onDisk>> {
    for (let look = onDisk(store); ; ) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const next = onDisk(store);
      if (JSON.stringify(next) === JSON.stringify(look)) return next;
      look = next;
    }
  }

  it("refuses while the app runs, says how it knows, and leaves the database as it was, byte for byte", async () => {
    const before = await settled();
    const run = await db(store, ["restore", backup]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      `db: ${databaseFile(store)} is open in another process (the app, its webhook worker or a CLI): SQLite would not give this command ` +
        "sole use of it (a database leaves WAL mode only when no other connection has it open). Stop the app and try again.\n",
    );
    expect(onDisk(store)).toEqual(before);
    expect((await get(LATER.id)).status).toBe(200);
  });

  it("refuses while only the webhook worker has the database open", async () => {
    await app.kill();
    const worker = await startWorkerProcess(store);
    try {
      const before = onDisk(store);
      const run = await db(store, ["restore", backup]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("is open in another process (the app, its webhook worker or a CLI)");
      expect(onDisk(store)).toEqual(before);
    } finally {
      await worker.kill();
    }
  });

  describe("with the app stopped, a backup it cannot restore", () => {
    const cases: [string, () => string, RegExp][] = [
      ["a file that is not there", () => path.join(folder, "no-such-backup.db"), /^db: there is no file .*no-such-backup\.db to restore\n$/],
      ["a file that is not a SQLite database", () => written("notes.db", "plants to water on Monday\n".repeat(400)), /^db: .*notes\.db is not a SQLite database\n$/],
      ["an empty file", () => written("empty.db", ""), /^db: .*empty\.db is empty \(0 bytes\): not a SQLite database, so no backup\n$/],
      ["a SQLite database with no tables", () => emptyDatabase("no-tables.db"), /^db: .*no-tables\.db is a SQLite database with no tables at all: no backup of Plant Store\n$/],
      ["a damaged database", damaged, /^db: .*damaged\.db is damaged: \S[^]*\n$/],
      ["another application's SQLite database", foreign, /^db: .*foreign\.db is a SQLite database, but not Plant Store's: it has no _prisma_migrations or no plants table\n$/],
      [
        "a backup from a newer build",
        () => changed("newer.db", `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('x', 'x', '29991231000000_from_the_future', 0, 0, 1)`),
        /^db: .*newer\.db comes from a newer build of Plant Store: it records migrations this checkout does not have \(29991231000000_from_the_future\)\. Restore it with that build or a newer one\.\n$/,
      ],
      [
        "a backup whose last migration failed",
        () => changed("failed.db", `UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = '${listMigrations("sqlite").at(-1)!.name}'`),
        /^db: .*failed\.db records migration \S+ as failed: the app would not start on it\n$/,
      ],
    ];

    it.each(cases)("refuses %s, changing nothing", async (_, make, message) => {
      const file = make();
      const source = digest(file);
      const before = onDisk(store);
      const run = await db(store, ["restore", file]);
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toMatch(message);
      expect(onDisk(store)).toEqual(before);
      expect(digest(file)).toBe(source);
    });
  });

  it("restores the backup into the stopped app's data directory, keeps the replaced database beside it, and the app serves the backup's plants", async () => {
    const before = Date.now();
    const replacedPlants = plantsIn(databaseFile(store));
    expect(replacedPlants).toContainEqual(LATER);
    const run = await db(store, ["restore", backup]);
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });

    const [, replacedName] = /kept as \S+\/(plant-store\.db\.replaced-\d{8}T\d{6}Z): remove it when you no longer need it/.exec(run.stdout) ?? [];
    expect(replacedName, run.stdout).toBeDefined();
    expect(run.stdout).toMatch(new RegExp(`^restored ${databaseFile(store)} from ${backup} \\([\\d.]+ kB, 4 plants, checked; migrations up to ${listMigrations("sqlite").at(-1)!.name}\\)\n`));
    const stamp = replacedName!.slice(-16).replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z");
    expect(Date.parse(stamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    // One file each: no WAL, no leftovers of the swap.
    expect(readdirSync(store.dataDir).sort()).toEqual(["auth-secret", "plant-store.db", replacedName]);
    expect(plantsIn(databaseFile(store))).toEqual(BACKED_UP);
    expect(plantsIn(path.join(store.dataDir, replacedName!))).toEqual(replacedPlants);
    // The backup is only ever read.
    expect(readFileSync(backup).equals(backupBytes)).toBe(true);
    expect(statSync(backup).mtimeMs).toBe(backupModified);

    await app.restart();
    for (const plant of BACKED_UP) expect(await get(plant.id)).toEqual({ status: 200, plant });
    expect((await get(LATER.id)).status).toBe(404);
  });

  it("takes a backup from an older build, whose missing migrations the app applies as it starts", async () => {
    const older = path.join(folder, "older.db");
    const migrations = listMigrations("sqlite");
    await migrateSqlite(older, migrations.slice(0, -1));
    const target = await freshDatabase();
    const run = await db(target, ["restore", older]);
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(`migrations up to ${migrations.at(-2)!.name}, 1 newer applied when the app starts)`);
    expect(run.stdout).toContain("there was no database there before");
    const migrated = await runCli("db:migrate", [], { database: target });
    expect(migrated.stdout).toContain(`applied ${migrations.at(-1)!.name}`);
  });
});

describe("db restore's command line", () => {
  it.each([
    ["no file", ["restore"], "restore needs the backup file to restore"],
    ["two files", ["restore", "a.db", "b.db"], "restore takes one file name; got a.db b.db"],
    ["an option", ["restore", "--force"], "restore takes one file name; got --force"],
  ])("answers %s with the usage and exit code 2", async (_, args, message) => {
    const database = await freshDatabase();
    const run = await db(database, args);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toContain(`db: ${message}\nusage:`);
    expect(run.stderr).toContain("  db restore FILE ");
  });
});

describe.skipIf(sqlite)("db restore on PostgreSQL", () => {
  it("shows the pg_restore commands into an empty database, without the password, and exits 1", async () => {
    const database = await freshDatabase();
    const url = new URL(database.url);
    url.password = "never-printed-Pa55";
    const run = await db(database, ["restore", "nightly.dump"], { DATABASE_URL: url.href });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).not.toContain("never-printed-Pa55");
    url.password = "";
    const name = url.pathname.slice(1);
    expect(run.stderr).toContain("restore a pg_dump backup with pg_restore into an empty database, then point DATABASE_URL at it");
    expect(run.stderr).toContain(`\n  createdb --maintenance-db=${url.href} ${name}_restored\n`);
    url.pathname = `/${name}_restored`;
    expect(run.stderr).toContain(`\n  pg_restore --exit-on-error --single-transaction --no-owner --dbname=${url.href} nightly.dump\n`);
    expect(run.stderr).toContain("(the password is left out: give it in PGPASSWORD or ~/.pgpass)");
  });

  it("shows commands that, run as printed after db backup's, restore the plants into a new database", async () => {
    const database = await freshDatabase();
    expect((await runCli("db:migrate", [], { database })).code).toBe(0);
    await database.query("INSERT INTO plants (id, name, tag) VALUES ($1, $2, $3), ($4, $5, $6)", [9223372036854775807n, "Highest", "edge", 9007199254740993n, "Past 2^53", null]);
    const workDir = mkdtempSync(path.join(folder, "pg-"));
    await shell(/^ {2}(pg_dump .+)$/m.exec((await db(database, ["backup"])).stderr)![1]!, workDir);
    const [dump] = readdirSync(workDir);
    await database.query("INSERT INTO plants (id, name) VALUES (3, 'Added after the backup')");

    const run = await db(database, ["restore", dump!]);
    expect(run.code).toBe(1);
    const commands = [...run.stderr.matchAll(/^ {2}((?:createdb|pg_restore) .+)$/gm)].map((match) => match[1]!);
    expect(commands).toHaveLength(2);
    const restoredName = `${new URL(database.url).pathname.slice(1)}_restored`;
    try {
      for (const command of commands) await shell(command, workDir);
      const restoredUrl = new URL(database.url);
      restoredUrl.pathname = `/${restoredName}`;
      const restored = testDatabaseAt({ ...database, url: restoredUrl.href, config: { provider: "postgresql", url: restoredUrl.href } }, async () => {});
      expect(await storedPlants(restored)).toEqual([
        { id: 9007199254740993n, name: "Past 2^53", tag: null },
        { id: 9223372036854775807n, name: "Highest", tag: "edge" },
      ]);
      const migrations = await restored.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
      expect(migrations.map((row) => row.migration_name)).toEqual(listMigrations("postgresql").map((migration) => migration.name));
      expect(await storedPlants(database)).toHaveLength(3);
    } finally {
      await dropPostgresDatabase(restoredName);
    }
  });
});

function written(name: string, content: string | Buffer): string {
  const file = path.join(folder, name);
  writeFileSync(file, content);
  return file;
}

/** A Plant Store database with pages past the first overwritten: SQLite opens it, and finds the damage in its integrity check or before. */
function damaged(): string {
  const file = path.join(folder, "damaged.db");
  copyFileSync(path.join(folder, "taken-while-running.db"), file);
  const descriptor = openSync(file, "r+");
  writeSync(descriptor, Buffer.alloc(4 * 4096, 0x5a), 0, 4 * 4096, 2 * 4096);
  closeSync(descriptor);
  return file;
}

function foreign(): string {
  const file = path.join(folder, "foreign.db");
  const connection = new Database(file);
  connection.exec("CREATE TABLE flowers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO flowers (name) VALUES ('Rose')");
  connection.close();
  return file;
}

/** A SQLite database with its header written and nothing in it. */
function emptyDatabase(name: string): string {
  const file = path.join(folder, name);
  const connection = new Database(file);
  connection.pragma("user_version = 1");
  connection.close();
  return file;
}

/** A copy of the backup with one statement run on it. */
function changed(name: string, sql: string): string {
  const file = path.join(folder, name);
  copyFileSync(path.join(folder, "taken-while-running.db"), file);
  const connection = new Database(file);
  connection.exec(sql);
  connection.close();
  return file;
}

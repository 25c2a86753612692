import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { COPIED_TABLES } from "@/lib/db/copy/copied-tables";
import { type DatabaseProvider, describeDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/db/migrate";
import { listMigrations } from "@/lib/db/migrations";
import { appEnv } from "@/test/support/app-env";
import { freePort } from "@/test/support/app-server";
import { cliCommand, runCli, tokenCli } from "@/test/support/cli";
import { makeTestDatabase, stampPlantChanges, type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";
import { mountTmpfs, type Tmpfs } from "@/test/support/tmpfs";
import { sqlTime } from "@/test/support/webhook-endpoints";

// npm run --silent db -- copy --to <DATABASE_URL> (issue 23), as processes
// against real databases. The SQLite project copies SQLite to SQLite; the
// PostgreSQL project, every way PostgreSQL takes part (SQLite to it, it to
// SQLite, and to itself). Each copy's target is compared with its source by
// the test's own reads, not by the copy's checksums.

const made: TestDatabase[] = [];
const mounted: Tmpfs[] = [];
const mountPoints = mkdtempSync(path.join(tmpdir(), "plant-store-copy-cli-"));
afterAll(async () => {
  await Promise.all(made.map((database) => database.drop()));
  for (const tmpfs of mounted) await tmpfs.unmount();
  rmSync(mountPoints, { recursive: true, force: true });
});

async function fresh(provider: DatabaseProvider, migrated = true): Promise<TestDatabase> {
  const database = await makeTestDatabase(provider);
  made.push(database);
  if (migrated) await migrate(database.config);
  return database;
}

const PAIRS: [DatabaseProvider, DatabaseProvider][] =
  testDatabaseProvider() === "sqlite"
    ? [["sqlite", "sqlite"]]
    : [
        ["sqlite", "postgresql"],
        ["postgresql", "sqlite"],
        ["postgresql", "postgresql"],
      ];

const copy = (source: TestDatabase, args: string[]) => runCli("db", ["copy", ...args], { database: source });

/**
 * A source of each engine made once for the file and shared by the pairs that copy from it (PostgreSQL's two,
 * in the PostgreSQL project): a copy only reads its source, and each test checks that it left it as it was.
 */
function sharedSource(fill: (database: TestDatabase) => Promise<void>): (provider: DatabaseProvider) => Promise<TestDatabase> {
  const sources = new Map<DatabaseProvider, Promise<TestDatabase>>();
  return (provider) => {
    if (!sources.has(provider)) sources.set(provider, fresh(provider).then(async (database) => (await fill(database), database)));
    return sources.get(provider)!;
  };
}
const filledStore = sharedSource(fillStore);
// Enough that a copy killed 200 ms after it began is killed mid-copy on a machine many times faster than this
// one: SQLite to SQLite copies and verifies 100,000 plants (and their changes) in 5.5 s on a quiet day here. With
// 300,000, the copy run again after the kill was most of these tests' CPU (issue 44).
const MANY_PLANTS = 100_000;
const manyPlants = sharedSource((database) => fillManyPlants(database, MANY_PLANTS));

/** A store as the app and its CLIs leave it: an owner, an invitation, a token, an endpoint that wants plant.created, plants at the int64 edges with their outbox rows, a delivery sent, a plant changed, activity. */
async function fillStore(database: TestDatabase): Promise<void> {
  const cli = async (name: "user" | "webhook", args: string[], stdin?: string) => {
    const run = await runCli(name, args, { database, stdin, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
    if (run.code !== 0) throw new Error(`${name} ${args.join(" ")}: ${run.stderr}`);
  };
  await cli("user", ["create", "--email", "ana@example.com", "--role", "owner", "--name", "Ana Łódź"], "a long enough passphrase\n");
  await cli("user", ["invite", "--email", "ivy@example.com", "--role", "staff"]);
  await tokenCli(database, ["create", "--name", "till", "--scope", "plants:write", "--expires", "30d"]);
  await cli("webhook", ["create", "--url", "http://127.0.0.1:9/hooks", "--event", "plant.created"]);
  // Straight in the database, as the app's own writes would leave them: the triggers write each plant's event and delivery.
  await database.query("INSERT INTO plants (id, name, tag, created_at) VALUES ($1, $2, NULL, $3), ($4, $5, $6, $7), ($8, $9, $10, $11)", [
    -9223372036854775808n,
    "Lowest",
    sqlTime(database, new Date("2026-11-26T10:00:00.001Z")),
    9223372036854775807n,
    "Ёлка 🌲 \"quoted\", 'single' \\ back",
    "日本",
    sqlTime(database, new Date("2026-11-26T10:00:00.002Z")),
    9007199254740993n,
    "Past 2^53",
    "",
    sqlTime(database, new Date("2026-11-26T10:00:00.999Z")),
  ]);
  // A column default's time, as a plant inserted by hand gets one (SQLite: 2026-11-26 12:00:00).
  await database.query("INSERT INTO plants (id, name) VALUES (1, 'Fern')");
  await database.query(`UPDATE plants SET name = 'Fern, repotted', tag = 'NULL', version = 2, updated_at = $1 WHERE id = 1`, [sqlTime(database, new Date("2026-11-26T11:00:00.500Z"))]);
  await database.query(
    `UPDATE webhook_deliveries SET status = 'delivered', attempts = 1, last_status = 200, last_attempt_at = $1, delivered_at = $2
     WHERE event_id = (SELECT id FROM webhook_events WHERE data LIKE '%Lowest%')`,
    [sqlTime(database, new Date("2026-11-26T10:00:01.000Z")), sqlTime(database, new Date("2026-11-26T10:00:01.250Z"))],
  );
  // The plants' changes with their positions in the feed, as the app's instances give them on PostgreSQL.
  await stampPlantChanges(database);
}

type Cell = string | number | boolean | null;

/** A table's rows, each value read by the test itself as the app means it (a time as Unix ms, a flag as a boolean, an integer as its decimal), sorted. */
async function rowsOf(database: TestDatabase, table: string): Promise<string[]> {
  const columns =
    database.provider === "sqlite"
      ? (await database.query<{ name: string; type: string }>(`PRAGMA table_info("${table}")`)).map((column) => ({ name: column.name, type: column.type }))
      : await database.query<{ name: string; type: string }>(
          "SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
          [table],
        );
  // PostgreSQL's values as text: no time zone or float on the way.
  const select = columns.map((column) => (database.provider === "sqlite" ? `"${column.name}"` : `"${column.name}"::text AS "${column.name}"`)).join(", ");
  const rows = await database.query<Record<string, unknown>>(`SELECT ${select} FROM "${table}"`);
  const cell = (type: string, value: unknown): Cell => {
    if (value === null) return null;
    if (/^(DATETIME|timestamp)/.test(type)) {
      if (typeof value === "bigint") return Number(value);
      const text = String(value).replace(" ", "T");
      return Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`);
    }
    if (/^bool/i.test(type)) return value === 1n || value === "true";
    return String(value);
  };
  return rows.map((row) => JSON.stringify(columns.map((column) => [column.name, cell(column.type, row[column.name])]))).sort();
}

async function everyTable(database: TestDatabase): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of COPIED_TABLES) tables[table] = await rowsOf(database, table);
  return tables;
}

/** What reading the source could change: the SQLite file's bytes (and its WAL's), or every table's rows. */
async function sourceState(database: TestDatabase): Promise<unknown> {
  if (database.config.provider === "postgresql") return everyTable(database);
  const file = database.config.path;
  const hash = (file: string) => (existsSync(file) && readFileSync(file).length > 0 ? createHash("sha256").update(readFileSync(file)).digest("hex") : "none");
  return { file: hash(file), wal: hash(`${file}-wal`) };
}

describe.each(PAIRS)("db copy from %s to %s", (from, to) => {
  it("copies every table the app keeps, verified table by table, as the app writes each engine, and leaves the source untouched", async () => {
    const source = await filledStore(from);
    const target = await fresh(to);
    const before = await sourceState(source);

    const run = await copy(source, ["--to", target.url]);
    expect(run.stderr).toMatch(/^copying \d+ rows from .+ in one transaction; if interrupted, the target is left empty: run it again\n$/);
    expect(run.code).toBe(0);
    const counts = Object.fromEntries(await Promise.all(COPIED_TABLES.map(async (table) => [table, (await source.query(`SELECT * FROM "${table}"`)).length])));
    expect(counts).toMatchObject({ users: 1, account_links: 1, api_tokens: 1, plants: 4, webhook_endpoints: 1, webhook_events: 4, webhook_deliveries: 4 });
    for (const table of COPIED_TABLES) {
      expect(run.stdout).toMatch(new RegExp(`^  ${table} +${counts[table]}  match( [0-9a-f]{16})?$`, "m"));
    }
    expect(run.stdout).toMatch(/^copied \d+ rows from .+ to .+ in [\d.]+ s \(copy [\d.]+ s, verification [\d.]+ s\), verified table by table and committed:$/m);
    expect(run.stdout).toContain("not copied: _prisma_migrations (the target's own record of its migrations), rate_limits (rate-limit counters, which start afresh)");
    expect(run.stdout).toContain("Start the app on the target with the same NEXTAUTH_SECRET");

    expect(await everyTable(target)).toEqual(await everyTable(source));
    expect(await sourceState(source)).toEqual(before);
    // Pending deliveries stay pending: the worker on the target sends them.
    expect(await target.query("SELECT status FROM webhook_deliveries WHERE status = 'pending'")).toHaveLength(3);
    if (to === "sqlite") {
      // Times in the adapter's own form, whatever form the source held (a column default's, say).
      const times = await target.query<{ created_at: string }>("SELECT created_at FROM plants");
      for (const { created_at } of times) expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    }

    // The target's activity ids go on after the source's: the next record made there.
    const [{ last }] = await source.query<{ last: bigint }>("SELECT max(id) AS last FROM activity") as [{ last: bigint }];
    expect(run.stdout).toContain(`the target gives activity.id from ${BigInt(last) + 1n} on`);
    await tokenCli(target, ["create", "--name", "after the move", "--scope", "plants:read", "--expires", "1d"]);
    const [newest] = await target.query<{ id: bigint; action: string }>("SELECT id, action FROM activity ORDER BY id DESC LIMIT 1");
    expect(newest).toEqual({ id: BigInt(last) + 1n, action: "token.created" });
  });

  it("migrates an empty target first, saying so, then copies into it", async () => {
    const source = await fresh(from);
    await source.query("INSERT INTO plants (id, name, tag) VALUES (1, 'Fern', NULL), (9007199254740993, 'Past 2^53', 'edge')");
    // Never migrated: a new SQLite file (not there yet), or a database just made with createdb.
    const target = await fresh(to, false);
    const url = withPassword(target.url, "s3cret-pa55");

    const run = await copy(source, ["--to", url]);

    expect(run.code, run.stderr).toBe(0);
    const migrations = listMigrations(to).map((migration) => migration.name);
    const applied = `${migrations.length} migrations applied, up to ${migrations.at(-1)}`;
    expect(run.stderr.split("\n")[0]).toBe(`migrated the empty target ${describeDatabase(target.config)}: ${applied}`);
    expect(run.stdout).toContain(`\nthe target was empty, and was migrated first: ${applied}\n`);
    expect(run.stderr + run.stdout).not.toContain("s3cret-pa55");
    const recorded = await target.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
    expect(recorded.map((row) => row.migration_name)).toEqual(migrations);
    expect(await everyTable(target)).toEqual(await everyTable(source));
  });

  // Once with each engine as the killed copy's source and once as its target (SQLite to SQLite, SQLite to
  // PostgreSQL, PostgreSQL to SQLite): PostgreSQL to itself would repeat both halves at the cost of
  // another copy of many plants (issue 44).
  it.skipIf(from === "postgresql" && to === "postgresql")("killed mid-copy (kill -9) leaves the target empty, and a second copy then succeeds", async () => {
    const source = await manyPlants(from);
    const target = await fresh(to);

    const running = startCopy(source, target.url);
    await running.waitForStderr(/if interrupted, the target is left empty: run it again\n/);
    // Rows are flowing: several seconds' worth of them, a moment in.
    await new Promise((resolve) => setTimeout(resolve, 200));
    running.child.kill("SIGKILL");
    const exit = await running.exit;
    expect(exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(running.stdout()).toBe("");

    for (const table of COPIED_TABLES) expect(await target.query(`SELECT 1 FROM "${table}" LIMIT 1`), table).toEqual([]);

    const again = await copy(source, ["--to", target.url]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^  plants +${MANY_PLANTS.toLocaleString("en-US")}  match [0-9a-f]{16}$`, "m"));
    const [{ count }] = (await target.query<{ count: bigint | string }>("SELECT count(*) AS count FROM plants")) as [{ count: bigint | string }];
    expect(BigInt(count)).toBe(BigInt(MANY_PLANTS));
  });
});

async function fillManyPlants(database: TestDatabase, count: number): Promise<void> {
  if (database.provider === "postgresql") {
    await database.query("INSERT INTO plants (id, name, tag) SELECT n::bigint * 7919, 'Plant ' || n, CASE WHEN n % 3 = 0 THEN 'tag ' || (n % 50) END FROM generate_series(1, $1::int) AS n", [count]);
    return;
  }
  // One transaction of prepared inserts: the test's own direct access opens a connection per statement.
  await database.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
     INSERT INTO plants (id, name, tag, created_at) SELECT i * 7919, 'Plant ' || i, CASE WHEN i % 3 = 0 THEN 'tag ' || (i % 50) END, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') FROM n`,
  );
}

/** The copy as a process of its own, to be killed. */
function startCopy(source: TestDatabase, to: string): { child: ChildProcess; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; stdout(): string; waitForStderr(pattern: RegExp): Promise<void> } {
  const child = spawn(process.execPath, [...cliCommand("db"), "copy", "--to", to], { cwd: process.cwd(), env: appEnv(source), stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  return {
    child,
    exit,
    stdout: () => stdout,
    async waitForStderr(pattern) {
      const deadline = Date.now() + 60_000;
      while (!pattern.test(stderr)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the copy did not start (exit ${child.exitCode}):\n${stderr}${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

describe(`db copy refuses, into ${testDatabaseProvider()}`, () => {
  const provider = testDatabaseProvider();
  const MIGRATE = /DATABASE_URL=\S+ npm run db:migrate/;

  it("without --to, or with a URL that names no database", async () => {
    const source = await fresh(provider);
    expect(await copy(source, [])).toMatchObject({ code: 2, stderr: expect.stringContaining("db: copy needs --to <DATABASE_URL>, the database to copy into\nusage:") });
    expect(await copy(source, ["--to", "mysql://127.0.0.1/plants"])).toMatchObject({ code: 2, stderr: expect.stringContaining("db: --to must be a SQLite file URL") });
    expect(await copy(source, ["--to"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^db: Option '--to <value>' argument missing/) });
    expect(await copy(source, ["--to", source.url])).toMatchObject({ code: 1, stderr: expect.stringContaining("the target is the configured database itself") });
  });

  it("a target that is not empty though never migrated, naming the tables it holds, and leaves it as it was", async () => {
    const source = await fresh(provider);
    const target = await fresh(provider, false);
    await target.exec("CREATE TABLE flowers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO flowers (id, name) VALUES (1, 'Rose')");
    const run = await copy(source, ["--to", target.url]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(`db: the target ${describeDatabase(target.config)} is not empty: it holds tables no migration of this app made (flowers). Copy into an empty database\n`);
    expect(await tableNames(target)).toEqual(["flowers"]);
  });

  it("a SQLite target on a file system that is full or read-only, naming the folder and why", async ({ skip }) => {
    const source = await fresh(provider);
    await fillManyPlants(source, 50_000);
    const mount = async (name: string, options: { size: string; readOnly?: boolean }) => {
      const tmpfs = await mountTmpfs(path.join(mountPoints, name), options);
      if ("refused" in tmpfs) return skip(`this test needs file systems of its own, and mounting one was refused (run as root): ${tmpfs.refused}`);
      mounted.push(tmpfs);
      return tmpfs.dir;
    };
    const [full, readOnly] = [await mount("full", { size: "1m" }), await mount("read-only", { size: "64k", readOnly: true })];

    const intoFull = await copy(source, ["--to", `file:${full}/moved.db`]);
    expect(intoFull).toMatchObject({ code: 1, stdout: "" });
    expect(intoFull.stderr).toMatch(new RegExp(`\\ndb: cannot write ${full}/moved\\.db: ${full} is full \\([\\d.]+ (B|kB|MB) free on its file system\\); nothing was committed\\n$`));
    // Migrated, and empty: the next attempt, with room, copies into it.
    expect(readdirSync(full)).toEqual(["moved.db"]);

    const intoReadOnly = await copy(source, ["--to", `file:${readOnly}/moved.db`]);
    expect(intoReadOnly).toMatchObject({ code: 1, stdout: "" });
    expect(intoReadOnly.stderr).toBe(`db: cannot write ${readOnly}/moved.db: ${readOnly} cannot be written: it is on a read-only file system; nothing was committed\n`);
  });

  it("a PostgreSQL target it cannot reach, naming it with its password left out", async () => {
    const source = await fresh(provider);
    const port = await freePort();
    const run = await copy(source, ["--to", `postgresql://plants:n3ver-printed@127.0.0.1:${port}/plant_store?sslmode=disable`]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      `db: cannot connect to PostgreSQL at postgresql://plants:<password>@127.0.0.1:${port}/plant_store?sslmode=disable: ` +
        `connection refused (connect ECONNREFUSED 127.0.0.1:${port}): is the server running, and listening on that host and port?\n`,
    );
  });

  it("a target at another migration than the source", async () => {
    const source = await fresh(provider);
    const target = await fresh(provider, false);
    const migrations = listMigrations(provider);
    await migrate(target.config, migrations.slice(0, -1));
    const run = await copy(source, ["--to", target.url]);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining(`is at migration ${migrations.at(-2)!.name}, the source at ${migrations.at(-1)!.name}; migrate it first`) });
    expect(run.stderr).toMatch(MIGRATE);

    // A source this build has not migrated yet: never migrated by the copy, which does not write to it; nor is
    // the empty target it was to go into, which is left untouched.
    const behind = await fresh(provider, false);
    await migrate(behind.config, migrations.slice(0, -1));
    const empty = await fresh(provider, false);
    const fromBehind = await copy(behind, ["--to", empty.url]);
    expect(fromBehind).toMatchObject({ code: 1, stderr: expect.stringContaining(`is at migration ${migrations.at(-2)!.name}, this build's latest is ${migrations.at(-1)!.name}`) });
    expect(await behind.query('SELECT migration_name FROM "_prisma_migrations"')).toHaveLength(migrations.length - 1);
    if (empty.config.provider === "sqlite") expect(existsSync(empty.config.path)).toBe(false);
    else expect(await tableNames(empty)).toEqual([]);
  });

  it("a target that holds rows, naming the tables that do, and leaves them as they were", async () => {
    const source = await fresh(provider);
    await source.query("INSERT INTO plants (id, name) VALUES (1, 'Fern')");
    const target = await fresh(provider);
    await tokenCli(target, ["create", "--name", "left over", "--scope", "plants:read", "--expires", "1d"]);
    await target.query("INSERT INTO plants (id, name) VALUES (2, 'Ivy'), (3, 'Moss')");
    const run = await copy(source, ["--to", target.url]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toContain("is not empty: api_tokens (1 row), plants (2 rows), plant_changes (2 rows), activity (1 row). Copy into an empty database, freshly migrated\n");
    expect((await target.query<{ id: bigint }>("SELECT id FROM plants ORDER BY id")).map((row) => BigInt(row.id))).toEqual([2n, 3n]);
  });

  it("a target another process is writing to, once it has waited for it a while", async () => {
    const source = await fresh(provider);
    const target = await fresh(provider);
    // An app's write under way on the target, held open.
    const release = await holdWriteLock(target);
    try {
      const run = await copy(source, ["--to", target.url]);
      expect(run).toMatchObject({ code: 1, stderr: expect.stringMatching(/^db: the target is in use: another process (held its write lock for 5 s|kept its tables for 10 s); stop what runs on it \(an app\?\), then copy\n$/) });
    } finally {
      await release();
    }
  });

  it("to commit a target that does not read back as the source was read, leaving it empty", async () => {
    const source = await fresh(provider);
    await source.query("INSERT INTO plants (id, name) VALUES (1, 'Fern'), (2, 'Ivy')");
    const target = await fresh(provider);
    // A trigger added by hand that changes what is written: the copy's checksums catch it.
    await target.exec(
      provider === "sqlite"
        ? `CREATE TRIGGER shout AFTER INSERT ON plants BEGIN UPDATE plants SET name = upper(NEW.name) WHERE rowid = NEW.rowid; END`
        : `CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.name := upper(NEW.name); RETURN NEW; END $$;
           CREATE TRIGGER shout BEFORE INSERT ON plants FOR EACH ROW EXECUTE FUNCTION shout()`,
    );
    const run = await copy(source, ["--to", target.url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^  plants +2  DIFFERS: source 2 rows [0-9a-f]{16}, target 2 rows [0-9a-f]{16}$/m);
    expect(run.stdout).toMatch(/^  users +0  match$/m);
    expect(run.stderr).toMatch(/db: the copy did not verify \(plants differ\): nothing was committed, the target is as it was\n$/);
    expect(await target.query("SELECT id FROM plants")).toEqual([]);
  });

  it("a source with rows whose foreign key names nothing, saying which and how to remove them", async () => {
    const source = await fresh(provider);
    const created = await runCli("user", ["create", "--email", "gone@example.com", "--role", "staff"], { database: source, stdin: "a long enough passphrase\n" });
    expect(created.code).toBe(0);
    await tokenCli(source, ["create", "--name", "orphan", "--scope", "plants:read", "--expires", "1d"]);
    await source.query("UPDATE api_tokens SET owner_id = (SELECT id FROM users)");
    await source.exec(`${provider === "sqlite" ? "PRAGMA foreign_keys = OFF" : "SET session_replication_role = replica"}; DELETE FROM users`);
    const target = await fresh(provider);
    const run = await copy(source, ["--to", target.url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "the source holds rows whose foreign key names nothing, which the target would refuse:\n" +
        "  api_tokens.owner_id -> users: 1 row; the app ignores them. To remove them (the app stopped):\n" +
        "    DELETE FROM api_tokens WHERE owner_id IS NOT NULL AND owner_id NOT IN (SELECT id FROM users);\n",
    );
  });
});

/** The URL with a password in it: trust authentication takes any, and a copy must never print it. */
function withPassword(url: string, password: string): string {
  if (!url.startsWith("postgresql:")) return url;
  const withOne = new URL(url);
  withOne.password = password;
  return withOne.href;
}

/** The tables a database holds (SQLite's own aside). */
async function tableNames(database: TestDatabase): Promise<string[]> {
  const rows =
    database.provider === "sqlite"
      ? await database.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
      : await database.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
  return rows.map((row) => row.name);
}

/** Holds a write on the database until released, as an app's transaction would: SQLite's write lock, or a row lock's table lock on PostgreSQL. */
async function holdWriteLock(database: TestDatabase): Promise<() => Promise<void>> {
  if (database.config.provider === "sqlite") {
    const sqlite = new Database(database.config.path);
    sqlite.exec("BEGIN IMMEDIATE");
    return async () => {
      sqlite.exec("ROLLBACK");
      sqlite.close();
    };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("INSERT INTO plants (id, name) VALUES (7, 'Being written')");
  return async () => {
    await client.query("ROLLBACK");
    await client.end();
  };
}

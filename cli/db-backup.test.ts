import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "@/test/support/cli";
import { insertPlants } from "@/test/support/insert-plants";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { shell } from "@/test/support/shell";
import { type StoredPlant, storedPlants, type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";
import { mountTmpfs, type Tmpfs } from "@/test/support/tmpfs";

// npm run --silent db -- backup, as a process against a real database (issue
// 23): on SQLite a checked copy where the operator looks for it, named for
// when it was taken; on PostgreSQL the pg_dump command, which (run as printed)
// makes a dump pg_restore reads.

const freshDatabase = freshDatabases();
const sqlite = testDatabaseProvider() === "sqlite";

const folder = mkdtempSync(path.join(tmpdir(), "plant-store-backup-cli-"));
const mounted: Tmpfs[] = [];
afterAll(async () => {
  for (const tmpfs of mounted) await tmpfs.unmount();
  rmSync(folder, { recursive: true, force: true });
});

/** A folder on a tmpfs of the test's own (unmounted after the file's tests); skips the test, saying why, where mounting is refused. */
async function tmpfsFolder(skip: (note: string) => never, name: string, options: { size: string; readOnly?: boolean }): Promise<string> {
  const tmpfs = await mountTmpfs(path.join(folder, name), options);
  if ("refused" in tmpfs) skip(`this test needs a file system of its own, and mounting one was refused (run as root): ${tmpfs.refused}`);
  mounted.push(tmpfs);
  return tmpfs.dir;
}

const PLANTS: StoredPlant[] = [
  { id: -9223372036854775808n, name: "Lowest", tag: null },
  { id: 1n, name: "Monstera", tag: "aroid" },
  { id: 9007199254740993n, name: "Past 2^53", tag: null },
  { id: 9223372036854775807n, name: "Highest", tag: "edge" },
];

const db = (database: TestDatabase, args: string[], env?: Record<string, string>) => runCli("db", args, { database, env });

/** A migrated database holding PLANTS. */
async function storeWithPlants(): Promise<TestDatabase> {
  const database = await freshDatabase();
  const migrated = await runCli("db:migrate", [], { database });
  expect(migrated.code, migrated.stderr).toBe(0);
  await insertPlants(database, PLANTS);
  return database;
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

const SAID = /^backed up (?<database>\S+) to (?<file>\S+) \((?<size>[\d.]+ (?:B|kB|MB|GB)), checked, in [\d.]+ s\)\n$/;

describe.skipIf(!sqlite)("db backup on SQLite", () => {
  it("writes a checked copy to DATA_DIR/backups, named for the time it was taken, and says where and how big", async () => {
    const database = await storeWithPlants();
    const before = Date.now();
    const run = await db(database, ["backup"]);
    const after = Date.now();
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
    const said = SAID.exec(run.stdout)?.groups;
    expect(said, run.stdout).toBeDefined();
    expect(said!.database).toBe(path.join(database.dataDir, "plant-store.db"));
    expect(path.dirname(said!.file!)).toBe(path.join(database.dataDir, "backups"));
    const [, stamp] = /^plant-store-(\d{8}T\d{6}Z)-manual\.db$/.exec(path.basename(said!.file!)) ?? [];
    const taken = Date.parse(stamp!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));
    expect(taken).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(taken).toBeLessThanOrEqual(after);
    expect(readdirSync(path.join(database.dataDir, "backups"))).toEqual([path.basename(said!.file!)]);
    expect(plantsIn(said!.file!)).toEqual(PLANTS);
    expect(said!.size).toBe(`${(statSync(said!.file!).size / 1000).toFixed(1)} kB`);
  });

  it("writes into BACKUP_DIR when it is set, making the folder", async () => {
    const database = await storeWithPlants();
    const backupDir = path.join(folder, "configured", "nightly");
    const run = await db(database, ["backup"], { BACKUP_DIR: backupDir });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const [name] = readdirSync(backupDir);
    expect(name).toMatch(/^plant-store-\d{8}T\d{6}Z-manual\.db$/);
    expect(SAID.exec(run.stdout)?.groups?.file).toBe(path.join(backupDir, name!));
    expect(plantsIn(path.join(backupDir, name!))).toEqual(PLANTS);
    expect(existsSync(path.join(database.dataDir, "backups"))).toBe(false);
  });

  it("writes FILE when given one, and refuses a FILE that exists, leaving it as it was", async () => {
    const database = await storeWithPlants();
    const file = path.join(folder, "by-hand", "before-the-upgrade.db");
    const run = await db(database, ["backup", file]);
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(SAID.exec(run.stdout)?.groups?.file).toBe(file);
    expect(plantsIn(file)).toEqual(PLANTS);

    const taken = readFileSync(file);
    await database.query("INSERT INTO plants (id, name) VALUES (2, 'Added since')");
    const again = await db(database, ["backup", file]);
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toBe(`db: ${file} exists; name another file, or remove it first\n`);
    expect(readFileSync(file).equals(taken)).toBe(true);
    expect(readdirSync(path.dirname(file))).toEqual(["before-the-upgrade.db"]);
  });

  it("fails in a folder that runs out of room, saying which folder is full, and leaves nothing in it", async ({ skip }) => {
    const database = await storeWithPlants();
    // Larger than SQLite's page cache, so that the copy's pages spill to its file before the end, and SQLite
    // makes a rollback journal beside it: a database of 14 MB left none behind here, one of 20 MB did.
    const writer = new Database(path.join(database.dataDir, "plant-store.db"));
    const insert = writer.prepare("INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)");
    writer.transaction(() => {
      for (let id = 10; id < 160_000; id++) insert.run(id, `A plant with a name long enough to fill pages, number ${id}`, `tag-${id}`);
    })();
    writer.close();
    const full = await tmpfsFolder(skip, "full", { size: "1m" });

    const run = await db(database, ["backup", path.join(full, "nightly.db")]);

    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toMatch(new RegExp(`^db: cannot write ${escape(path.join(full, "nightly.db"))}: ${escape(full)} is full \\([\\d.]+ (?:B|kB|MB) free on its file system, the file needs up to [\\d.]+ MB\\)\n$`));
    expect(readdirSync(full)).toEqual([]);
  });

  it("says a folder it cannot write to cannot be written, and why, whether it is there or has to be made", async ({ skip }) => {
    const database = await storeWithPlants();
    const readOnly = await tmpfsFolder(skip, "read-only", { size: "64k", readOnly: true });

    const into = await db(database, ["backup", path.join(readOnly, "nightly.db")]);
    expect(into).toMatchObject({ code: 1, stdout: "" });
    expect(into.stderr).toBe(`db: cannot write ${path.join(readOnly, "nightly.db")}: ${readOnly} cannot be written: it is on a read-only file system\n`);

    const under = await db(database, ["backup"], { BACKUP_DIR: path.join(readOnly, "nightly") });
    expect(under).toMatchObject({ code: 1, stdout: "" });
    expect(under.stderr).toBe(`db: cannot make the folder ${path.join(readOnly, "nightly")}: ${readOnly} cannot be written: it is on a read-only file system\n`);
  });

  it("says there is nothing to back up when the database does not exist yet", async () => {
    const database = await freshDatabase();
    const run = await db(database, ["backup", path.join(folder, "nothing.db")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`there is no database at ${path.join(database.dataDir, "plant-store.db")} to back up`);
    expect(existsSync(path.join(folder, "nothing.db"))).toBe(false);
  });
});

describe("db backup's command line", () => {
  it.each([
    ["two files", ["backup", "a.db", "b.db"], "backup takes one file name at most"],
    ["an option", ["backup", "--to", "a.db"], "backup takes one file name at most"],
    ["no command", [], "a command is required"],
    ["an unknown command", ["dump"], "unknown command dump"],
  ])("answers %s with the usage and exit code 2, doing nothing", async (_, args, message) => {
    const database = await freshDatabase();
    const run = await db(database, args);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toContain(`db: ${message}`);
    expect(run.stderr).toContain("usage:\n  db backup [FILE]");
    expect(existsSync(path.join(database.dataDir, "backups"))).toBe(false);
  });
});

describe.skipIf(sqlite)("db backup on PostgreSQL", () => {
  it("shows the pg_dump command for the configured database, without its password, and exits 1 having made nothing", async () => {
    const database = await freshDatabase();
    const url = new URL(database.url);
    url.password = "never-printed-Pa55";
    const run = await db(database, ["backup"], { DATABASE_URL: url.href });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).not.toContain("never-printed-Pa55");
    url.password = "";
    expect(run.stderr).toMatch(new RegExp(`^  pg_dump --format=custom --file=plant-store-\\d{8}T\\d{6}Z-manual\\.dump ${escape(url.href)}$`, "m"));
    expect(run.stderr).toContain("(the password is left out: give it in PGPASSWORD or ~/.pgpass)");
    expect(existsSync(path.join(database.dataDir, "backups"))).toBe(false);
  });

  it("shows a command that, run as printed, dumps the database's plants for pg_restore", async () => {
    const database = await storeWithPlants();
    const run = await db(database, ["backup"]);
    expect(run.code).toBe(1);
    const command = /^ {2}(pg_dump .+)$/m.exec(run.stderr)?.[1];
    expect(command, run.stderr).toBeDefined();
    const workDir = mkdtempSync(path.join(folder, "dump-"));
    await shell(command!, workDir);
    const [dump] = readdirSync(workDir);
    expect(dump).toMatch(/^plant-store-\d{8}T\d{6}Z-manual\.dump$/);
    const listing = await shell(`pg_restore --list ${dump}`, workDir);
    expect(listing).toMatch(/TABLE DATA public plants /);
    expect(await storedPlants(database)).toEqual(PLANTS);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

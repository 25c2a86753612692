import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, takeSoleUse } from "@/lib/db/sqlite-sole-use";
import { lineReader } from "@/test/support/child-lines";

// Sole use of a SQLite file, against connections held by other processes, as
// the app's and its worker's are: what db restore relies on to refuse while
// the app runs, and to swap the file without another process writing into
// the one it replaced.

const folder = mkdtempSync(path.join(tmpdir(), "plant-store-sole-use-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const DRIVER = createRequire(import.meta.url).resolve("better-sqlite3");

// Another process's connection: it opens the file (in WAL mode, as the app does,
// or read-only, as the app's direct reads do), says so, and on each line it is
// sent runs that statement and answers the result or the error's code.
const HOLDER = `
const Database = require(process.argv[1]);
const [file, mode] = process.argv.slice(2);
const db = new Database(file, { readonly: mode === "readonly", timeout: 5000 });
if (mode === "wal") db.pragma("journal_mode = WAL");
if (mode === "readonly") db.prepare("SELECT count(*) FROM sqlite_master").get();
process.stdout.write("open\\n");
require("node:readline").createInterface({ input: process.stdin }).on("line", (sql) => {
  try {
    const statement = db.prepare(sql);
    process.stdout.write(JSON.stringify(statement.reader ? statement.all() : statement.run().changes) + "\\n");
  } catch (error) {
    process.stdout.write(error.code + "\\n");
  }
});
`;

type Holder = { ask(sql: string): Promise<string>; stop(): void };
const holders: ChildProcessWithoutNullStreams[] = [];
afterEach(() => holders.splice(0).forEach((child) => child.kill()));

async function holdOpen(file: string, mode: "wal" | "readonly" | "opened only"): Promise<Holder> {
  const child = spawn(process.execPath, ["-e", HOLDER, DRIVER, file, mode]);
  holders.push(child);
  const { nextLine } = lineReader(child.stdout);
  expect(await nextLine()).toBe("open");
  return {
    ask: (sql) => {
      child.stdin.write(`${sql}\n`);
      return nextLine();
    },
    stop: () => child.kill(),
  };
}

let made = 0;
/** A database in WAL mode, as the app leaves it, with one row saying what it is. */
function walDatabase(content: string): string {
  const file = path.join(folder, `database-${made++}.db`);
  const connection = new Database(file);
  connection.pragma("journal_mode = WAL");
  connection.exec(`CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('${content}')`);
  connection.close();
  return file;
}

describe("sole use of a SQLite database", () => {
  it("is refused while another process has it open, read-write or read-only, idle or not", async () => {
    const file = walDatabase("live");
    for (const mode of ["wal", "readonly"] as const) {
      const holder = await holdOpen(file, mode);
      expect(() => takeSoleUse(file)).toThrow(DatabaseInUseError);
      expect(() => takeSoleUse(file)).toThrow(/open in another process .*Stop the app and try again/);
      // The other process goes on as before.
      expect(await holder.ask("SELECT x FROM t")).toBe('[{"x":"live"}]');
      holder.stop();
    }
  });

  it("leaves the database one file when given, and keeps everyone else out while held", async () => {
    const file = walDatabase("live");
    const soleUse = takeSoleUse(file);
    expect(readdirSync(folder).filter((name) => name.startsWith(path.basename(file)))).toEqual([path.basename(file)]);
    const other = new Database(file, { timeout: 0 });
    expect(() => other.prepare("SELECT x FROM t").all()).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
    soleUse.release();
    expect(other.prepare("SELECT x FROM t").all()).toEqual([{ x: "live" }]);
    other.close();
  });

  it("keeps a process that opened the file before a swap from writing into the replaced one after it", async () => {
    const file = walDatabase("replaced");
    const replacement = walDatabase("restored");
    const soleUse = takeSoleUse(file);
    // It opened the database by its name while the swap was under way, and uses it once the swap is done.
    const late = await holdOpen(file, "opened only");
    renameSync(file, `${file}.replaced`);
    copyFileSync(replacement, file);
    soleUse.release();

    expect(await late.ask("PRAGMA journal_mode = WAL")).toBe("SQLITE_READONLY_DBMOVED");
    expect(await late.ask("INSERT INTO t VALUES ('late write')")).toBe("SQLITE_READONLY_DBMOVED");
    const replaced = new Database(`${file}.replaced`, { readonly: true });
    expect(replaced.prepare("SELECT x FROM t").all()).toEqual([{ x: "replaced" }]);
    replaced.close();
    expect(readdirSync(folder).filter((name) => name.startsWith(`${path.basename(file)}-`))).toEqual([]);
  });
});

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { checkSqliteFile, snapshotSqlite } from "@/lib/db/sqlite-snapshot";

// The copy a backup is made of, from a real SQLite file with a writer of its own beside it.

const folder = mkdtempSync(path.join(tmpdir(), "plant-store-snapshot-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("a SQLite snapshot", () => {
  it("holds every commit made before it began, checked, and leaves nothing half-written by its name", async () => {
    const source = path.join(folder, "live.db");
    await migrate({ provider: "sqlite", path: source });
    const writer = new Database(source);
    writer.pragma("journal_mode = WAL");
    const insert = writer.prepare("INSERT INTO plants (id, name, created_at) VALUES (?, ?, '2026-11-26T00:00:00.000+00:00')");
    writer.transaction(() => {
      for (let id = 1n; id <= 5_000n; id++) insert.run(id, `Plant ${id}`);
    })();
    // The last commits are still in the WAL, not yet in the database file: the copy reads them from there.
    insert.run(9223372036854775807n, "Largest");
    insert.run(-9223372036854775808n, "Smallest");

    const file = path.join(folder, "backup.db");
    const snapshot = await snapshotSqlite(source, file);
    writer.close();

    expect(snapshot.file).toBe(file);
    expect(snapshot.bytes).toBeGreaterThan(0);
    // Password hashes and sealed secrets are in it: the owner's alone.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await checkSqliteFile(file)).toEqual(["ok"]);
    expect(readdirSync(folder).filter((name) => name.startsWith("backup.db"))).toEqual(["backup.db"]);
    const copy = new Database(file, { readonly: true });
    copy.defaultSafeIntegers(true);
    expect(copy.prepare("SELECT count(*) AS plants FROM plants").get()).toEqual({ plants: 5_002n });
    expect(copy.prepare("SELECT min(id) AS low, max(id) AS high FROM plants").get()).toEqual({ low: -9223372036854775808n, high: 9223372036854775807n });
    copy.close();
  });

  it("refuses a file that is not a sound database, and leaves no .partial behind when a copy fails", async () => {
    const notADatabase = path.join(folder, "not-a-database.db");
    writeFileSync(notADatabase, "SQLite format 3\0 but nothing after it".padEnd(4096, "x"));
    await expect(checkSqliteFile(notADatabase)).rejects.toThrow();
    const target = path.join(folder, "never.db");
    await expect(snapshotSqlite(notADatabase, target)).rejects.toThrow();
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.partial`)).toBe(false);
  });
});

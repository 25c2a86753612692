import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { describeSize } from "@/lib/backup/describe-size";
import { describeWriteFailure, makeFolder } from "@/lib/db/write-failure";

// What an operator reads when a file cannot be written, on real folders: the
// file and its folder named, and the cause the system gives. (A full and a
// read-only file system, which need a tmpfs of their own, are tested through
// `db backup` in cli/db-backup.test.ts.)

const root = mkdtempSync(path.join(tmpdir(), "plant-store-write-failure-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FULL = { code: "SQLITE_FULL", message: "database or disk is full" };
const CANT_OPEN = { code: "SQLITE_CANTOPEN", message: "unable to open database: x.db.partial" };

const freeIn = (dir: string) => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

describe("describeWriteFailure", () => {
  it("names the full folder and its free space, and tells it from SQLite's temporary folder when the folder had room", () => {
    const file = path.join(root, "nightly.db");
    expect(describeWriteFailure(file, FULL)).toMatch(new RegExp(`^cannot write ${file}: ${root} is full \\([\\d.]+ (B|kB|MB|GB|TB) free on its file system\\)$`));
    // More than any disk holds: the folder is the one that was full.
    expect(describeWriteFailure(file, { code: "ENOSPC", message: "ENOSPC: no space left on device, write" }, 2 ** 60)).toMatch(/is full \(.+ free on its file system, the file needs up to 1152921\.5 TB\)$/);
    // One byte: the folder had room, so the file system that filled was another.
    expect(describeWriteFailure(file, FULL, 1)).toBe(
      `cannot write ${file}: SQLite ran out of room (database or disk is full), yet ${root} has ${describeSize(freeIn(root))} free, enough for the file's 1 B at most: ` +
        "the full file system is likely that of SQLite's temporary files (SQLITE_TMPDIR, else /var/tmp or /tmp)",
    );
  });

  it("says a folder that is missing, or a file in its place, is why a file could not be opened", () => {
    const missing = path.join(root, "missing");
    expect(describeWriteFailure(path.join(missing, "x.db"), CANT_OPEN)).toBe(`cannot write ${missing}/x.db: there is no folder ${missing}`);
    const file = path.join(root, "a-file");
    writeFileSync(file, "not a folder");
    expect(describeWriteFailure(path.join(file, "x.db"), CANT_OPEN)).toBe(`cannot write ${file}/x.db: ${file} is not a folder (it is a file)`);
  });

  it("keeps to SQLite's words when the folder can be written and has room: the failure was something else", () => {
    expect(describeWriteFailure(path.join(root, "x.db"), CANT_OPEN)).toBeUndefined();
    expect(describeWriteFailure(path.join(root, "x.db"), { code: "SQLITE_CORRUPT", message: "database disk image is malformed" })).toBeUndefined();
  });

  it("says permission is denied, to whom, in a folder this user may not write into", async ({ skip }) => {
    const locked = path.join(root, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    chmodSync(root, 0o755);
    const file = path.join(locked, "x.db");
    if (process.getuid?.() !== 0) {
      expect(describeWriteFailure(file, CANT_OPEN)).toBe(
        `cannot write ${file}: ${locked} cannot be written: permission denied to user ${userInfo().username} (uid ${userInfo().uid}) (see its owner and mode: ls -ld ${locked})`,
      );
      return;
    }
    // Root writes anywhere: the folder is asked about by a process running as nobody.
    const script = `const { describeWriteFailure } = require(${JSON.stringify(path.resolve("lib/db/write-failure.ts"))});
      process.stdout.write(describeWriteFailure(${JSON.stringify(file)}, ${JSON.stringify(CANT_OPEN)}) ?? "undefined");`;
    const asNobody = await promisify(execFile)(process.execPath, ["--import", "tsx", "-e", script], { uid: 65534, gid: 65534, cwd: process.cwd() }).catch(
      (error: Error) => error,
    );
    if (asNobody instanceof Error) return skip(`this test runs a process as nobody (uid 65534), which could not start here: ${asNobody.message}`);
    expect(asNobody.stdout).toMatch(new RegExp(`^cannot write ${file}: ${locked} cannot be written: permission denied to (user \\S+ )?\\(?uid 65534\\)? \\(see its owner and mode: ls -ld ${locked}\\)$`));
  });
});

describe("makeFolder", () => {
  it("makes the folder and its parents, and says which folder stood in the way when it cannot", () => {
    const made = path.join(root, "made", "deeper");
    makeFolder(made);
    makeFolder(made);
    const blocker = path.join(root, "blocker");
    writeFileSync(blocker, "a file");
    expect(() => makeFolder(path.join(blocker, "backups", "nightly"))).toThrow(`cannot make the folder ${blocker}/backups/nightly: ${blocker} is not a folder (it is a file)`);
  });
});

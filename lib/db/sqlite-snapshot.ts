import { chmodSync, renameSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { flushToDisk } from "@/lib/db/flush-to-disk";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sqlite";
import { removeSqliteFiles } from "@/lib/db/sqlite-files";
import { describeWriteFailure } from "@/lib/db/write-failure";

// A consistent copy of a live SQLite database (issue 23), for `db backup` and
// the scheduled backups. VACUUM INTO reads the database in one read
// transaction, so the copy is the database as it was when the copy began
// (every commit before it, none after), and in WAL mode a reader neither waits
// for nor blocks the writer: the app goes on writing while it runs. It runs on
// a worker thread with a connection of its own, as the checkpoints do
// (lib/db/sqlite-checkpoints.ts): a million plants take seconds to copy, which
// on the event loop would be seconds of every request waiting. (SQLite's
// online backup API would start over each time another connection wrote, so
// under steady writes it might never end.)
//
// The copy is written beside its destination under a .partial name, checked
// with PRAGMA integrity_check, flushed to disk, and only then renamed into
// place: a file by the destination's name is always a whole, checked backup.

// The worker's whole program, CommonJS run by Node itself: Next never bundles it.
// Its failures are sent as their messages and codes: an error thrown out of a
// worker reaches the parent by structured clone, which keeps a SqliteError's
// code and drops its message ("unable to open database file", "database or
// disk is full"); and whether the copy was being written, so that the parent
// can say which folder was full or could not be written.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
// Below the threads that answer requests: on Linux a nice value is a thread's own (setpriority(2)), and
// the thread's id is the last part of /proc/thread-self. Elsewhere it runs at the process's priority.
try {
  const thread = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  require("node:os").setPriority(thread, workerData.nice);
} catch {}
let writing = false;
try {
  const source = new Database(workerData.source, { readonly: true, fileMustExist: true, timeout: workerData.busyTimeoutMs });
  try {
    writing = true;
    source.prepare("VACUUM INTO ?").run(workerData.partial);
    writing = false;
  } finally {
    source.close();
  }
  const copy = new Database(workerData.partial, { readonly: true, fileMustExist: true });
  try {
    parentPort.postMessage({ problems: copy.pragma("integrity_check(20)").map((row) => row.integrity_check) });
  } finally {
    copy.close();
  }
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error), code: error?.code, writing });
}
`;

// The copying thread's nice value. A copy is CPU-bound for seconds (VACUUM INTO
// rebuilds every index), and on a machine of few cores it takes a core from
// the requests. Measured on two cores, with a million plants under POST /plants
// from 50 connections (npm run bench:backup, issue 23): at nice 0 the requests
// kept 0.75 of their throughput while a copy ran and their p99 rose 1.9 times;
// at nice 10, 0.83 and 1.4 times, the copy taking a tenth longer (2.3 s). Not
// 19: under full load the copy would hardly advance, and the WAL grows while it reads.
const COPY_NICE = 10;

export type Snapshot = { file: string; bytes: number; durationMs: number };

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

/** Copies the SQLite database at `databasePath` to `file` (which must not exist), checked and on disk; `file`'s folder must exist. */
export async function snapshotSqlite(databasePath: string, file: string): Promise<Snapshot> {
  const started = performance.now();
  const partial = `${file}.partial`;
  // A .partial left by a process that died mid-copy is no one's: VACUUM INTO refuses a file that exists.
  removeSqliteFiles(partial);
  try {
    const answer = await inWorker(databasePath, partial);
    if ("failed" in answer) {
      if (!answer.writing) throw new SnapshotError(answer.failed);
      // SQLite's words name no folder ("database or disk is full") or no cause ("unable to open database: <file>.partial").
      // The folder's free space is read without the half-made copy, which is gone with the backup.
      removeSqliteFiles(partial);
      const cause = { code: answer.code, message: answer.failed };
      // Anything else VACUUM INTO met (a damaged source, say) keeps SQLite's words.
      throw new SnapshotError(describeWriteFailure(file, cause, statSync(databasePath).size) ?? answer.failed);
    }
    const { problems } = answer;
    if (problems.length !== 1 || problems[0] !== "ok") {
      throw new SnapshotError(`the copy failed SQLite's integrity check: ${problems.join("; ")}`);
    }
    // A backup holds password hashes, token records and sealed secrets: its owner's alone, wherever BACKUP_DIR is.
    chmodSync(partial, 0o600);
    flushToDisk(partial);
    renameSync(partial, file);
    flushToDisk(path.dirname(file));
  } finally {
    // With its journal: a copy that ran out of room leaves one beside it.
    removeSqliteFiles(partial);
  }
  return { file, bytes: statSync(file).size, durationMs: performance.now() - started };
}

/** Checks a SQLite file as restore does before it uses one: the lines of PRAGMA integrity_check, ["ok"] when sound. */
export async function checkSqliteFile(file: string): Promise<string[]> {
  const Database = (await import("better-sqlite3")).default;
  const connection = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (connection.pragma("integrity_check(20)") as { integrity_check: string }[]).map((row) => row.integrity_check);
  } finally {
    connection.close();
  }
}

/** What the copying thread answers: the copy's integrity check, or SQLite's failure and whether it came while writing the copy. */
type WorkerAnswer = { problems: string[] } | { failed: string; code?: string; writing: boolean };

function inWorker(source: string, partial: string): Promise<WorkerAnswer> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, source, partial, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, nice: COPY_NICE } });
  return new Promise((resolve, reject) => {
    let answer: WorkerAnswer | undefined;
    worker.once("message", (message: WorkerAnswer) => (answer = message));
    worker.once("error", (error) => reject(new SnapshotError(error.message)));
    worker.once("exit", (code) => (answer ? resolve(answer) : reject(new SnapshotError(`the copying thread stopped (exit code ${code})`))));
  });
}

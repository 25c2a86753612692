import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sqlite";
import { log } from "@/lib/server/log";
import { processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

// WAL checkpoints off the event loop (issue 12). SQLite copies the WAL back
// into the database file when a commit finds it over wal_autocheckpoint
// pages; better-sqlite3 runs that inside the commit, on the event loop, with
// an fsync of the database file: a pause every few thousand plants that every
// request in flight waits out, which is the p99. Here a worker thread with a
// connection of its own checkpoints every CHECKPOINT_INTERVAL_MS instead, in
// PASSIVE mode (it never waits for, nor blocks, a reader or the writer), so
// the app's connection never reaches its own, raised, threshold (SQLITE_PRAGMAS),
// which stays as the safety net where no worker runs (`next dev`, the CLIs).

const CHECKPOINT_INTERVAL_MS = 200;

// The worker's whole program, CommonJS run by Node itself: Next never bundles it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const connection = new Database(workerData.path, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
connection.pragma("synchronous = FULL");
const checkpoint = () => {
  try {
    connection.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  checkpoint();
  connection.close();
  parentPort.close();
});
`;

/** Starts the checkpointing worker for the SQLite file at `path`, once per process. */
export function startSqliteCheckpoints(path: string): void {
  processGlobal("db.checkpoints", () => {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, path, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    worker.on("message", (message: { failed: string }) => log.warn("a WAL checkpoint failed; the next one retries", { error: message.failed }));
    worker.on("error", (error) => log.error("the WAL checkpoint worker stopped; commits checkpoint on the event loop again", { error: String(error) }));
    // It never keeps the process alive by itself.
    worker.unref();
    return worker;
  });
}

/** Checkpoints once more and stops the worker, if this process started one (at shutdown). */
export async function stopSqliteCheckpoints(): Promise<void> {
  const worker = takeProcessGlobal<Worker>("db.checkpoints");
  if (!worker) return;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.postMessage("stop");
  await exited;
}

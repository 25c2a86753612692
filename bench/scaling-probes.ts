import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import pg from "pg";
import type { DatabaseConfig } from "@/lib/db/database-url";
import { testPostgresUrl } from "@/test/support/test-database";

// What BENCH_SCALING=profile watches during a round, from outside the app
// (nothing is added to it): where each worker's event loop spends its wall
// time, who holds SQLite's write lock, how many commits each worker makes,
// and, on PostgreSQL, how many of each worker's pool connections are busy.

// ---------------------------------------------------------------------------
// Wall time, sampled about 1,000 times a second in a thread of the bench's own
// (the load generator's event loop stays free): each worker's main thread's
// state (/proc/<pid>/syscall: "running", or the system call it is blocked in),
// and, on SQLite, which process holds the write lock. In WAL mode a writer
// holds an exclusive POSIX lock on byte 120 of the -shm file from its first
// write to the end of its commit, fsync included (SQLite's WAL_WRITE_LOCK);
// /proc/locks names the holder's pid.

const SAMPLER = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { inode, pids, stop } = workerData;
const flag = new Int32Array(stop);
const lock = inode === undefined ? undefined : new RegExp("^\\\\d+: POSIX\\\\s+ADVISORY\\\\s+WRITE (\\\\d+) [0-9a-f]+:[0-9a-f]+:" + inode + " 120 120$", "m");
const holders = {};
const states = Object.fromEntries(pids.map((pid) => [pid, {}]));
let samples = 0;
while (Atomics.load(flag, 0) === 0) {
  samples++;
  if (lock) {
    const holder = lock.exec(readFileSync("/proc/locks", "utf8"))?.[1] ?? "none";
    holders[holder] = (holders[holder] ?? 0) + 1;
  }
  for (const pid of pids) {
    let state;
    try {
      state = readFileSync("/proc/" + pid + "/syscall", "utf8").split(" ")[0].trim();
    } catch {
      state = "gone";
    }
    states[pid][state] = (states[pid][state] ?? 0) + 1;
  }
  Atomics.wait(flag, 0, 0, 1);
}
parentPort.postMessage({ samples, holders, states });
`;

export type WallSamples = { samples: number; holders: Record<string, number>; states: Record<string, Record<string, number>> };

/** Starts sampling `pids`' main threads and, given the SQLite database's path, its write lock; stop() answers the tallies. */
export function sampleWallTime(pids: number[], sqlitePath: string | undefined): { stop: () => Promise<WallSamples> } {
  const stop = new SharedArrayBuffer(4);
  const inode = sqlitePath === undefined ? undefined : statSync(`${sqlitePath}-shm`).ino;
  const worker = new Worker(SAMPLER, { eval: true, workerData: { inode, pids, stop } });
  const done = new Promise<WallSamples>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    stop: async () => {
      const flag = new Int32Array(stop);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      const samples = await done;
      await worker.terminate();
      return samples;
    },
  };
}

// x86-64 system call numbers a server's main thread blocks in.
const SYSCALL_KINDS: Record<string, string> = {
  running: "on CPU or runnable",
  "74": "fsync",
  "75": "fsync",
  "35": "sleeping (SQLite busy wait)",
  "230": "sleeping (SQLite busy wait)",
  "232": "idle (epoll)",
  "281": "idle (epoll)",
  "441": "idle (epoll)",
  "202": "futex (a thread's lock)",
};

/** A main thread's samples as shares of wall time, by kind, largest first. */
export function wallShares(states: Record<string, number>): string {
  const total = Object.values(states).reduce((sum, count) => sum + count, 0);
  const byKind = new Map<string, number>();
  for (const [state, count] of Object.entries(states)) {
    const kind = SYSCALL_KINDS[state] ?? `system call ${state}`;
    byKind.set(kind, (byKind.get(kind) ?? 0) + count);
  }
  return [...byKind]
    .sort((a, b) => b[1] - a[1])
    .filter(([, count]) => count / total >= 0.005)
    .map(([kind, count]) => `${kind} ${percent(count / total)}`)
    .join(", ");
}

export const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

// ---------------------------------------------------------------------------
// Commits per worker: SQLite's commit in WAL mode with synchronous=FULL
// fdatasyncs the WAL once, on the thread that commits, the worker's main
// thread (better-sqlite3 is synchronous). perf counts the system calls in
// the kernel, without stopping the process.

export type SyncCounts = Map<number, number>;

/** Counts fdatasync and fsync calls on each thread of `pids` until stop(); answers the counts by thread id, or undefined if perf cannot. */
export function countSyncs(pids: number[]): { stop: () => Promise<SyncCounts | undefined> } {
  let output = "";
  let child: ChildProcess | undefined;
  try {
    child = spawn("perf", ["stat", "-x", ",", "--per-thread", "-e", "syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync", "-p", pids.join(",")], { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", () => (child = undefined));
  } catch {
    child = undefined;
  }
  return {
    stop: () =>
      new Promise((resolve) => {
        const running = child;
        if (!running || running.exitCode !== null) return resolve(undefined);
        running.once("close", () => {
          const counts: SyncCounts = new Map();
          // comm-tid,count,unit,event,...
          for (const [, tid, count] of output.matchAll(/^.*-(\d+),(\d+),/gm)) counts.set(Number(tid), (counts.get(Number(tid)) ?? 0) + Number(count));
          resolve(counts.size > 0 ? counts : undefined);
        });
        running.kill("SIGINT");
      }),
  };
}

// ---------------------------------------------------------------------------
// The request log (JSON lines on stdout): what each worker answered.

export type LogTally = { requests: Map<string, number>; webhookAttempts: Map<string, number> };

/** Per worker ("worker 0", or "server" for the one process): 2xx requests and webhook attempts logged in `text`. */
export function tallyLog(text: string): LogTally {
  const tally: LogTally = { requests: new Map(), webhookAttempts: new Map() };
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    let record: { message?: string; worker?: number; status?: number };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const who = record.worker === undefined ? "server" : `worker ${record.worker}`;
    const into = record.message === "request" && record.status !== undefined && record.status < 300 ? tally.requests : record.message === "webhook attempt" ? tally.webhookAttempts : undefined;
    into?.set(who, (into.get(who) ?? 0) + 1);
  }
  return tally;
}

// ---------------------------------------------------------------------------
// /metrics, as a scraper reads it (the primary's, added up over the workers).

/** The value of each unlabelled sample, and of each labelled one under name{labels}. */
export async function scrapeMetrics(port: string | undefined): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  if (!port) return values;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  for (const [, name, value] of text.matchAll(/^([a-z_]+(?:\{[^}]*\})?) (\S+)$/gm)) values.set(name!, Number(value));
  return values;
}

// ---------------------------------------------------------------------------
// PostgreSQL: the app's connections, by the worker that holds each (its
// client port, matched to the worker's sockets), and what each is doing, from
// pg_stat_activity, 20 times a second.

export type ConnectionSamples = {
  samples: number;
  /**
   * Per pid: the most connections open at once (of them, the most of the rate
   * limits' own pool, lib/http/rate-limit.ts: by its application_name, or,
   * on a build that sets none, by its last statement);
   * of the app's pool (lib/db/postgres.ts), the sum over samples of those busy
   * (not idle), the most busy at once, and the samples with `full` or more busy.
   */
  byPid: Map<number, { open: number; rateLimitOpen: number; busySum: number; busyMost: number; fullSamples: number }>;
  /** What busy connections were doing: their wait event (IO:WALSync, Lock:transactionid...) or "running", and their state if not active; counts over samples. */
  waits: Map<string, number>;
  maxConnections: number;
  reserved: number;
};

/** Local port → pid, for `pids`' TCP connections to port 5432. */
function clientPorts(pids: number[]): Map<number, number> {
  const inodeToPid = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode) inodeToPid.set(inode, pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  const ports = new Map<number, number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, inode] = [fields[1], fields[2], fields[9]];
      if (!local || !remote || !inode || !remote.endsWith(":1538")) continue;
      const pid = inodeToPid.get(inode);
      if (pid !== undefined) ports.set(parseInt(local.split(":")[1]!, 16), pid);
    }
  }
  return ports;
}

/** Samples the connections `pids` hold to the PostgreSQL database of `config` until stop(). */
export async function sampleConnections(pids: number[], config: DatabaseConfig, full: number): Promise<{ stop: () => Promise<ConnectionSamples> }> {
  if (config.provider !== "postgresql") throw new Error("sampleConnections: a PostgreSQL database only");
  const database = new URL(config.url).pathname.slice(1);
  const client = new pg.Client({ connectionString: testPostgresUrl() });
  await client.connect();
  const setting = async (name: string) => Number((await client.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = $1", [name])).rows[0]?.setting);
  const result: ConnectionSamples = { samples: 0, byPid: new Map(), waits: new Map(), maxConnections: await setting("max_connections"), reserved: await setting("superuser_reserved_connections") };
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const ports = clientPorts(pids);
      const { rows } = await client.query<{ port: number; state: string | null; wait: string | null; rateLimit: boolean }>(
        `SELECT client_port AS port, state, wait_event_type || ':' || wait_event AS wait, (application_name = 'plant-store rate limits' OR query LIKE '%rate_limits%') AS "rateLimit"
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`,
        [database],
      );
      result.samples++;
      const now = new Map<number, { open: number; rateLimitOpen: number; busy: number }>();
      for (const row of rows) {
        const pid = ports.get(row.port);
        if (pid === undefined) continue;
        const counts = now.get(pid) ?? { open: 0, rateLimitOpen: 0, busy: 0 };
        counts.open++;
        if (row.rateLimit) counts.rateLimitOpen++;
        if (row.state !== "idle") {
          if (!row.rateLimit) counts.busy++;
          // "idle in transaction": the connection waits for its process, which holds it in a transaction.
          const doing = row.state === "active" ? (row.wait ?? "running") : `${row.state} (${row.wait ?? "running"})`;
          result.waits.set(doing, (result.waits.get(doing) ?? 0) + 1);
        }
        now.set(pid, counts);
      }
      for (const pid of pids) {
        const counts = now.get(pid) ?? { open: 0, rateLimitOpen: 0, busy: 0 };
        const kept = result.byPid.get(pid) ?? { open: 0, rateLimitOpen: 0, busySum: 0, busyMost: 0, fullSamples: 0 };
        kept.open = Math.max(kept.open, counts.open);
        kept.rateLimitOpen = Math.max(kept.rateLimitOpen, counts.rateLimitOpen);
        kept.busySum += counts.busy;
        kept.busyMost = Math.max(kept.busyMost, counts.busy);
        if (counts.busy >= full) kept.fullSamples++;
        result.byPid.set(pid, kept);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      await client.end();
      return result;
    },
  };
}

/** Sockets to PostgreSQL each of `pids` holds now: open connections, busy or idle. */
export function openConnections(pids: number[]): Map<number, number> {
  const counts = new Map<number, number>(pids.map((pid) => [pid, 0]));
  for (const pid of clientPorts(pids).values()) counts.set(pid, (counts.get(pid) ?? 0) + 1);
  return counts;
}

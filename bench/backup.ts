// npm run bench:backup: what a scheduled backup costs the requests served
// while it runs (issue 23). The built app on SQLite with BENCH_PLANTS plants
// (1,000,000 by default, written straight into the file before it starts) and
// scheduled backups every BENCH_BACKUP_INTERVAL, under steady POST /plants
// load (unique ids) from BENCH_CONNECTIONS connections. Every response is
// recorded with the time its request was sent; the backups' times come from
// the app's status file. Each backup is a round: the p99 of the requests sent
// while it ran, against those sent in a window as long just before it began
// (none running), and in one as long just after it ended (the WAL the backup
// held back is checkpointed then). Prints each round, and the median ratio
// with its range; the backup's duration and size, unloaded (the one taken at
// start) and under load; exits 1 if a request or a backup failed.
//   BENCH_PLANTS           plants stored before the app starts (default 1000000)
//   BENCH_ROUNDS           backups measured under load (default 5)
//   BENCH_CONNECTIONS      concurrent connections (default 50, as npm run bench)
//   BENCH_BACKUP_INTERVAL  BACKUP_INTERVAL (default 30s: room for the three windows of a round)
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import ms from "ms";
import type { BackupStatus, SucceededBackup } from "@/lib/backup/backup-status";
import { describeSize } from "@/lib/backup/describe-size";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";

const ROOT = path.resolve(import.meta.dirname, "..");
const PLANTS = Number(process.env.BENCH_PLANTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const INTERVAL = process.env.BENCH_BACKUP_INTERVAL ?? "30s";
const INTERVAL_MS = ms(INTERVAL as ms.StringValue) as number;
const WARMUP_MS = 5_000;
// Between the quiet window's end and the backup's start: the app's timer and the status file's clock are the same machine's, but a request sent just before a backup begins is answered during it.
const GAP_MS = 1_000;

type Sample = { sentAt: number; latencyMs: number };
type Window = { p99: number; p50: number; count: number; perSecond: number };

/** The p-th percentile of some latencies (nearest rank). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The requests sent in [from, to). Samples are in the order answered, close enough to the order sent for a filter. */
function windowOf(samples: Sample[], from: number, to: number): Window {
  const latencies = samples.filter((sample) => sample.sentAt >= from && sample.sentAt < to).map((sample) => sample.latencyMs);
  latencies.sort((a, b) => a - b);
  return { p99: percentile(latencies, 99), p50: percentile(latencies, 50), count: latencies.length, perSecond: latencies.length / ((to - from) / 1000) };
}

/** Plants 1 to `count`, written into the migrated SQLite file in one transaction, as fast as SQLite goes. */
function storePlants(file: string, count: number): void {
  const connection = new Database(file);
  try {
    connection.pragma("journal_mode = WAL");
    const insert = connection.prepare("INSERT INTO plants (id, name, tag, created_at) VALUES (?, ?, ?, '2026-11-26T00:00:00.000+00:00')");
    const tags = ["fern", "succulent", "aroid", "palm", null];
    connection.transaction(() => {
      for (let id = 1; id <= count; id++) insert.run(id, `Stored plant number ${id}, a ${tags[id % 5] ?? "plant"} of the bench`, tags[id % 5]);
    })();
    connection.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    connection.close();
  }
}

function readStatus(database: TestDatabase): BackupStatus | null {
  try {
    return JSON.parse(readFileSync(path.join(database.dataDir, "backup-status.json"), "utf8")) as BackupStatus;
  } catch {
    return null;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[]) => `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)})`;
const show = (window: Window) =>
  `p99 ${window.p99.toFixed(1).padStart(6)} ms  p50 ${window.p50.toFixed(1).padStart(5)} ms  ${window.perSecond.toFixed(0).padStart(5)} req/s (${window.count})`;

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  if (!(INTERVAL_MS >= 10_000)) throw new Error(`BENCH_BACKUP_INTERVAL=${INTERVAL}: a duration of at least 10s, such as 30s`);
  const database = await makeTestDatabase("sqlite");
  if (database.config.provider !== "sqlite") throw new Error("a SQLite bench");
  let app: AppServer | undefined;
  try {
    // The app migrates the new file at its first start; the plants go in while it is stopped.
    await (await startApp({ database, keepOutput: false })).stop();
    let started = performance.now();
    storePlants(database.config.path, PLANTS);
    console.log(`stored ${PLANTS} plants in ${((performance.now() - started) / 1000).toFixed(1)} s: ${describeSize(statSync(database.config.path).size)}`);

    const backupDir = path.join(database.dataDir, "backups");
    app = await startApp({ database, keepOutput: false, env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: INTERVAL, BACKUP_KEEP: "3", RATE_LIMIT_API: "off" } });
    const headers = { authorization: `Bearer ${await createToken(database, ["plants:write"], "2h")}`, "content-type": "application/json" };
    // The first backup is taken at start, on an idle app: its cost unloaded.
    started = performance.now();
    let unloaded: SucceededBackup | null = null;
    while (!(unloaded = readStatus(database)?.lastSuccess ?? null)) {
      if (performance.now() - started > 600_000) throw new Error("no backup within 10 minutes of the start");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(`backup at start, unloaded: ${(unloaded.durationMs / 1000).toFixed(1)} s, ${describeSize(unloaded.bytes)}`);

    // One steady load through every round; the backups come when the schedule says.
    const loadMs = WARMUP_MS + (ROUNDS + 1) * INTERVAL_MS;
    console.log(`POST /plants from ${CONNECTIONS} connections for ${(loadMs / 1000).toFixed(0)} s, a backup every ${INTERVAL} ...`);
    const loadStart = Date.now();
    const samples: Sample[] = [];
    const attempts = new Map<string, BackupStatus["lastAttempt"]>();
    // The WAL grows while a backup reads (the checkpoints cannot pass its snapshot): its peak is disk the backups need.
    const walFile = `${database.config.path}-wal`;
    let walPeak = 0;
    const watcher = setInterval(() => {
      const attempt = readStatus(database)?.lastAttempt;
      if (attempt) attempts.set(attempt.startedAt, attempt);
      if (existsSync(walFile)) walPeak = Math.max(walPeak, statSync(walFile).size);
    }, 250);
    let nextId = PLANTS + 1;
    const url = app.url;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: CONNECTIONS,
          duration: loadMs / 1000,
          requests: [{ method: "POST", path: "/plants", headers, setupRequest: (each) => ({ ...each, body: `{"id":${nextId++},"name":"Bench fern","tag":"bench"}` }) }],
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      );
      instance.on("response", (_client, _status, _bytes, latencyMs) => samples.push({ sentAt: Date.now() - latencyMs, latencyMs }));
    });
    clearInterval(watcher);
    const last = readStatus(database)?.lastAttempt;
    if (last) attempts.set(last.startedAt, last);

    const failures = result.non2xx + result.errors;
    console.log(`${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors; overall p99 ${result.latency.p99} ms`);
    const measured = [...attempts.values()].filter((attempt) => Date.parse(attempt.startedAt) >= loadStart + WARMUP_MS);
    const failed = measured.filter((attempt) => !attempt.ok);
    const rounds: { during: number; after: number; throughput: number }[] = [];
    const sizes: number[] = [];
    const durations: number[] = [];
    let previousEnd = loadStart + WARMUP_MS;
    console.log(`\nround  backup                before (none running)                       during the backup                           after it (as long)`);
    for (const [index, attempt] of measured.entries()) {
      const start = Date.parse(attempt.startedAt);
      const end = Date.parse(attempt.finishedAt);
      const length = end - start;
      const before = windowOf(samples, start - GAP_MS - length, start - GAP_MS);
      const during = windowOf(samples, start, end);
      const after = windowOf(samples, end, end + length);
      const fits = start - GAP_MS - length >= previousEnd && end + length <= loadStart + loadMs;
      previousEnd = end + length;
      const size = attempt.ok ? describeSize(attempt.bytes) : "failed";
      console.log(`${String(index + 1).padStart(5)}  ${(length / 1000).toFixed(1)} s ${size.padEnd(9)}  ${show(before)}   ${show(during)}   ${show(after)}${fits ? "" : "   (windows overlap: not counted)"}`);
      if (!fits || !attempt.ok) continue;
      rounds.push({ during: during.p99 / before.p99, after: after.p99 / before.p99, throughput: during.perSecond / before.perSecond });
      sizes.push(attempt.bytes);
      durations.push(length);
    }
    if (rounds.length === 0) throw new Error("no backup round fitted in the load: raise BENCH_BACKUP_INTERVAL");
    console.log(`\n${rounds.length} rounds, ${CONNECTIONS} connections, ${PLANTS} plants: p99 of POST /plants against the window before, median (lowest to highest)`);
    console.log(`  during the backup  ${range(rounds.map((round) => round.during))}x`);
    console.log(`  after it           ${range(rounds.map((round) => round.after))}x`);
    console.log(`  throughput during the backup, against the window before: ${range(rounds.map((round) => round.throughput))}x`);
    console.log(`  the backup under load: ${range(durations.map((each) => each / 1000))} s, ${describeSize(median(sizes))}; the WAL's peak ${describeSize(walPeak)}`);
    if (failures > 0 || failed.length > 0) {
      console.error(`${failures} requests and ${failed.length} backups failed${failed.length > 0 ? `: ${failed.map((attempt) => (attempt.ok ? "" : attempt.error)).join("; ")}` : ""}`);
      process.exitCode = 1;
    }
  } finally {
    await app?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

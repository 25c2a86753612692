// npm run bench:csv: what a CSV export of a large store costs the server. The
// built app on a fresh database with BENCH_CSV_PLANTS plants (default
// 100,000, written straight into the database: seconds, not 100,000 POSTs),
// then GET /plants with Accept: text/csv, end to end, read as it streams,
// while the server's resident memory is sampled from /proc/<pid>/status.
// Prints time, rows/s and the peak RSS against the RSS before each export:
// streamed, the peak should not grow with the number of plants.
//   BENCH_DATABASES   engine to measure (default sqlite; postgresql also works)
//   BENCH_CSV_PLANTS  plants stored (default 100000)
//   BENCH_CSV_RUNS    exports measured one after another (default 3: the first with a cold JIT and page cache)
// Then one more export read by a slow client (1 MB/s): backpressure, not the
// server's memory, must absorb the difference. Last, what the scans behind
// q= cost: a counted search for a text in the name, which reads every plant. The app does not compress its
// answers (a proxy in front may), so neither is this one.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { insertPlants } from "@/test/support/insert-plants";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENGINE = (process.env.BENCH_DATABASES ?? "sqlite") as DatabaseProvider;
const PLANTS = Number(process.env.BENCH_CSV_PLANTS ?? 100_000);
const RUNS = Number(process.env.BENCH_CSV_RUNS ?? 3);
const SAMPLE_MS = 10;
const SLOW_CLIENT_BYTES_PER_SECOND = 1_000_000;

const mb = (kB: number) => `${(kB / 1024).toFixed(1).padStart(6)} MB`;

/** A figure of /proc/<pid>/status in kB: VmRSS (resident now) or VmHWM (the resident peak since the process began). */
function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

// Names with what CSV must quote or guard now and then, so the export is not all fast paths.
function plantName(id: number): string {
  if (id % 50 === 0) return `Fern "${id}", quoted`;
  if (id % 77 === 0) return `=HYPERLINK("x${id}")`;
  return `Stored fern ${id}`;
}

type Run = { seconds: number; rows: number; bytes: number; before: number; peak: number };

async function exportOnce(url: string, headers: Record<string, string>, pid: number, { slow = false } = {}): Promise<Run> {
  const before = statusKb(pid, "VmRSS");
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, statusKb(pid, "VmRSS"))), SAMPLE_MS);
  const started = performance.now();
  try {
    const response = await fetch(`${url}/plants`, { headers: { ...headers, accept: "text/csv" } });
    if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}`);
    // Read as it streams, counting record ends, keeping nothing.
    let rows = -1; // the header row
    let bytes = 0;
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      const text = decoder.decode(chunk, { stream: true });
      for (let at = text.indexOf("\r\n"); at >= 0; at = text.indexOf("\r\n", at + 2)) rows++;
      if (slow) await new Promise((resolve) => setTimeout(resolve, (chunk.byteLength / SLOW_CLIENT_BYTES_PER_SECOND) * 1000));
    }
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, statusKb(pid, "VmRSS"));
    return { seconds, rows, bytes, before, peak };
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  const { app, headers } = await startBenchApp(ENGINE, { stored: 0 });
  try {
    const pid = app.pid();
    if (pid === undefined) throw new Error("the app has no process id");
    const storing = performance.now();
    const plants = Array.from({ length: PLANTS }, (_, index) => ({
      id: BigInt(index + 1),
      name: plantName(index + 1),
      tag: index % 3 === 0 ? null : index % 3 === 1 ? "indoor" : "-outdoor",
    }));
    await insertPlants(app.database, plants);
    console.log(`${ENGINE}: ${PLANTS} plants stored in ${((performance.now() - storing) / 1000).toFixed(1)} s (straight into the database)`);
    console.log(`server RSS at rest ${mb(statusKb(pid, "VmRSS"))}, its peak so far (VmHWM) ${mb(statusKb(pid, "VmHWM"))}`);
    console.log("  run          rows      bytes     time      rows/s   RSS before   peak RSS   peak - before");
    for (let run = 1; run <= RUNS + 1; run++) {
      const slow = run > RUNS;
      const result = await exportOnce(app.url, headers, pid, { slow });
      if (result.rows !== PLANTS) throw new Error(`the export had ${result.rows} rows, not ${PLANTS}`);
      console.log(
        `  ${slow ? "slow  " : `${String(run).padStart(3)}   `} ${String(result.rows).padStart(9)} ${(result.bytes / 2 ** 20).toFixed(1).padStart(7)} MB ${result.seconds.toFixed(2).padStart(6)} s ${(result.rows / result.seconds).toFixed(0).padStart(10)}   ${mb(result.before)}  ${mb(result.peak)}  ${mb(result.peak - result.before)}`,
      );
    }
    console.log(`server's peak RSS over its whole life (VmHWM) ${mb(statusKb(pid, "VmHWM"))}`);
    // Each query once: the SQLite reader keeps an answer until the database changes.
    for (const query of ["?q=FERN%20%2299&limit=20", "?q=no%20such%20name&limit=20", "?tag=indoor&limit=20"]) {
      const started = performance.now();
      const response = await fetch(`${app.url}/plants${query}`, { headers: { ...headers, prefer: "count=exact" } });
      await response.text();
      const ms = performance.now() - started;
      console.log(`  GET /plants${query} with Prefer: count=exact  ${ms.toFixed(0).padStart(5)} ms, X-Total-Count ${response.headers.get("x-total-count")}`);
    }
  } finally {
    await stopBenchApp(app);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

// npm run bench:batch: how many plants a second POST /plants/batch stores. The
// built app on a fresh database of each engine, then a few clients, each
// posting batches of 1,000 new plants (unique ids) one after another: first
// as JSON, then as CSV, for BENCH_SECONDS each after a short warm-up. Prints
// plants/s, batches/s, p50 and p99 per batch and the server's CPU time per
// plant; exits 1 if a batch is not answered 200 with every plant stored, or
// if the rows written are not the plants answered stored.
// The app runs as in production: request log at info, written to a pipe the
// bench drains.
//   BENCH_DATABASES  engines, comma-separated (default sqlite,postgresql)
//   BENCH_SECONDS    length of each phase (default 10)
//   BENCH_CLIENTS    clients posting at once (default 4)
//   BENCH_ROUNDS     rounds per format (default 1); with a baseline, the apps take turns
//   BENCH_BASELINE_ROOT  a built checkout of another commit (see bench/run.ts): adds,
//                    per engine, that build's app, and prints this build's plants/s
//                    against it, round by round (a change's cost)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { PLANT_BATCH_MAX } from "@/lib/validations/plant-batch";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",") as DatabaseProvider[];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
const WARMUP_BATCHES = 3;
const FORMATS = ["json", "csv"] as const;

type Format = (typeof FORMATS)[number];
type Phase = { batches: number; plants: number; seconds: number; latencies: number[]; cpuMs: number };

let nextId = 1_000_000n;

/** A batch of PLANT_BATCH_MAX plants never sent before, as a body of the format. */
function newBatch(format: Format): { body: string; contentType: string } {
  const ids = Array.from({ length: PLANT_BATCH_MAX }, () => nextId++);
  if (format === "json") {
    return { body: `[${ids.map((id) => `{"id":${id},"name":"Bench fern ${id}","tag":"bench"}`).join(",")}]`, contentType: "application/json" };
  }
  return { body: `id,name,tag\r\n${ids.map((id) => `${id},Bench fern ${id},bench`).join("\r\n")}\r\n`, contentType: "text/csv" };
}

/** Posts one batch; answers how long it took, in ms. */
async function postBatch(url: string, headers: Record<string, string>, format: Format): Promise<number> {
  const { body, contentType } = newBatch(format);
  const started = performance.now();
  const response = await fetch(`${url}/plants/batch`, { method: "POST", headers: { ...headers, "content-type": contentType }, body });
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`a ${format} batch answered ${response.status}: ${text.slice(0, 200)}`);
  const stored = text.split('"status":"stored"').length - 1;
  if (stored !== PLANT_BATCH_MAX) throw new Error(`a ${format} batch stored ${stored} of ${PLANT_BATCH_MAX} new plants: ${text.slice(0, 200)}`);
  return elapsed;
}

/** CPU time a process has used, in ms (Linux: user + system, from /proc). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th, in clock ticks (100 a second).
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CLIENTS clients, each posting batches back to back until `seconds` have passed. */
async function measure(url: string, headers: Record<string, string>, format: Format, seconds: number, pid: number | undefined): Promise<Phase> {
  const latencies: number[] = [];
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) latencies.push(await postBatch(url, headers, format));
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { batches: latencies.length, plants: latencies.length * PLANT_BATCH_MAX, seconds: elapsed, latencies, cpuMs: cpuMs(pid) - cpuBefore };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function show(engine: string, format: Format, phase: Phase): string {
  const sorted = [...phase.latencies].sort((a, b) => a - b);
  return [
    `  ${engine.padEnd(11)} ${format.padEnd(5)}`,
    `${(phase.plants / phase.seconds).toFixed(0).padStart(6)} plants/s`,
    `${(phase.batches / phase.seconds).toFixed(1).padStart(5)} batches/s`,
    `p50 ${percentile(sorted, 50).toFixed(0).padStart(4)} ms`,
    `p99 ${percentile(sorted, 99).toFixed(0).padStart(5)} ms`,
    `CPU ${((phase.cpuMs / phase.plants) * 1000).toFixed(1).padStart(5)} µs/plant`,
    `(${phase.batches} batches in ${phase.seconds.toFixed(1)} s)`,
  ].join("   ");
}

type BenchTarget = { name: string; app: Awaited<ReturnType<typeof startBenchApp>>["app"]; headers: Record<string, string>; answeredStored: number };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  console.log(`POST /plants/batch, ${PLANT_BATCH_MAX} new plants a batch, ${CLIENTS} clients, ${SECONDS} s per format, ${ROUNDS} round(s)`);
  for (const engine of ENGINES) {
    const targets: BenchTarget[] = [];
    try {
      targets.push({ name: engine, ...(await startBenchApp(engine, { stored: 0 })), answeredStored: 0 });
      if (BASELINE_ROOT) targets.push({ name: `baseline ${engine}`, ...(await startBenchApp(engine, { stored: 0, root: BASELINE_ROOT })), answeredStored: 0 });
      for (const target of targets) {
        for (const format of FORMATS) for (let n = 0; n < WARMUP_BATCHES; n++) await postBatch(target.app.url, target.headers, format);
        target.answeredStored += FORMATS.length * WARMUP_BATCHES * PLANT_BATCH_MAX;
      }
      // This build's plants/s over the baseline's, per format, one ratio a round: the apps take turns, so both meet the machine's drift.
      const ratios = new Map<Format, number[]>();
      for (let round = 1; round <= ROUNDS; round++) {
        for (const format of FORMATS) {
          const rates: number[] = [];
          for (const target of targets) {
            const phase = await measure(target.app.url, target.headers, format, SECONDS, target.app.pid());
            target.answeredStored += phase.plants;
            rates.push(phase.plants / phase.seconds);
            console.log(show(target.name, format, phase));
          }
          if (rates.length === 2) ratios.set(format, [...(ratios.get(format) ?? []), rates[0]! / rates[1]!]);
        }
      }
      for (const [format, values] of ratios) {
        console.log(`  ${engine} ${format}: this build's plants/s against the baseline's: median ${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}) over ${values.length} rounds`);
      }
      for (const target of targets) {
        const [counted] = await target.app.database.query<{ rows: unknown }>("SELECT count(*) AS rows FROM plants");
        const rows = Number(counted?.rows);
        if (rows !== target.answeredStored) throw new Error(`${target.name}: ${rows} rows written for ${target.answeredStored} plants answered stored`);
      }
    } finally {
      await Promise.all(targets.map((target) => stopBenchApp(target.app)));
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

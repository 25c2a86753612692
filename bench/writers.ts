import { fork } from "node:child_process";
import path from "node:path";
import type { WriterReport } from "@/bench/writer-process";
import { spread } from "@/bench/load";
import { migrate } from "@/lib/db/migrate";
import { appEnv } from "@/test/support/app-env";
import { makeTestDatabase } from "@/test/support/test-database";

// BENCH_SCALING=writers npm run bench (issue 33): how many durable plants a
// second the app's own create path stores from many processes on one SQLite
// file, with no HTTP before it: BENCH_WRITERS processes (16) against one, in
// alternating rounds, each keeping WRITER_IN_FLIGHT creates going (8) for
// BENCH_SECONDS (5), on a fresh migrated file each round. Plants a second in
// all (counted in the file afterwards, not only from the writers' reports),
// p99 of a create, and the ratio of many to one.

const ROOT = path.resolve(import.meta.dirname, "..");
const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_FLIGHT = Number(process.env.WRITER_IN_FLIGHT ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Each writer's ids start this far apart: none meets another's.
const IDS_PER_WRITER = 1n << 40n;

type Round = { plantsPerSecond: number; p99: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function round(writers: number): Promise<Round> {
  const database = await makeTestDatabase("sqlite");
  try {
    await migrate(database.config);
    const children = Array.from({ length: writers }, (_, index) =>
      fork(path.join(ROOT, "bench/writer-process.ts"), {
        execArgv: ["--import", "tsx"],
        cwd: ROOT,
        env: appEnv(database, { WRITER_FIRST_ID: String(BigInt(index + 1) * IDS_PER_WRITER), WRITER_SECONDS: String(SECONDS), WRITER_IN_FLIGHT: String(IN_FLIGHT) }),
        serialization: "advanced",
      }),
    );
    const exited = children.map(
      (child) => new Promise<void>((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`a writer exited with ${code}`))))),
    );
    // A writer that fails ends the round at once, whatever it was waited for.
    const failed = Promise.all(exited).then(() => new Promise<never>(() => {}));
    await Promise.race([failed, Promise.all(children.map((child) => new Promise<void>((resolve) => child.once("message", () => resolve()))))]);
    const started = performance.now();
    const reports = Promise.all(children.map((child) => new Promise<WriterReport>((resolve) => child.once("message", (report) => resolve(report as WriterReport)))));
    for (const child of children) child.send("go");
    const answered = await Promise.race([failed, reports]);
    const elapsed = (performance.now() - started) / 1000;
    await Promise.all(exited);
    // What the file holds, beyond each writer's first (made before the clock started): every plant a writer counted must be there.
    const [row] = await database.query<{ count: bigint }>("SELECT count(*) AS count FROM plants");
    const count = row?.count ?? 0n;
    const stored = answered.reduce((sum, report) => sum + report.stored, 0);
    if (Number(count) - writers !== stored) throw new Error(`the writers counted ${stored} plants, the file holds ${Number(count) - writers}`);
    const latencies = answered.flatMap((report) => report.latencies).sort((a, b) => a - b);
    return { plantsPerSecond: stored / elapsed, p99: percentile(latencies, 99) };
  } finally {
    await database.drop();
  }
}

export async function benchWriters(): Promise<void> {
  console.log(`BENCH_SCALING=writers: ${WRITERS} processes against 1 on one SQLite file, ${IN_FLIGHT} creates in flight each, ${ROUNDS} rounds of ${SECONDS} s`);
  const ratios: number[] = [];
  for (let index = 0; index < ROUNDS; index++) {
    const one = await round(1);
    const many = await round(WRITERS);
    ratios.push(many.plantsPerSecond / one.plantsPerSecond);
    console.log(
      `  round ${index + 1}: 1 process ${one.plantsPerSecond.toFixed(0)} plants/s (p99 ${one.p99.toFixed(1)} ms), ${WRITERS} processes ${many.plantsPerSecond.toFixed(0)} plants/s (p99 ${many.p99.toFixed(1)} ms)`,
    );
  }
  console.log(`  ${WRITERS} processes against 1: ${spread(ratios)}`);
}

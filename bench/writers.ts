import { type ChildProcess, fork } from "node:child_process";
import cluster from "node:cluster";
import path from "node:path";
import type { WriterReport } from "@/bench/writer-process";
import { spread } from "@/bench/load";
import { migrate } from "@/lib/db/migrate";
import { storePlantsForWorkers } from "@/lib/plants/plant-writer";
import { WORKER_PLACE_VARIABLE } from "@/lib/server/cluster-role";
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

/** The child's next message that `wanted` picks: a cluster worker's channel also carries its plants to the primary. */
function nextMessage<T>(child: ChildProcess, wanted: (message: unknown) => message is T): Promise<T>;
function nextMessage(child: ChildProcess, wanted: (message: unknown) => boolean): Promise<unknown>;
function nextMessage(child: ChildProcess, wanted: (message: unknown) => boolean): Promise<unknown> {
  return new Promise((resolve) => {
    const heard = (message: unknown) => {
      if (!wanted(message)) return;
      child.off("message", heard);
      resolve(message);
    };
    child.on("message", heard);
  });
}

const isReport = (message: unknown): message is WriterReport => typeof message === "object" && message !== null && "latencies" in message;

/** `writers` processes; with `throughPrimary`, cluster workers whose new plants this process, their primary, stores (lib/plants/plant-writer.ts). */
async function round(writers: number, { throughPrimary = false } = {}): Promise<Round> {
  const database = await makeTestDatabase("sqlite");
  let plantWriter: ReturnType<typeof storePlantsForWorkers> | undefined;
  try {
    await migrate(database.config);
    const config = database.config;
    if (config.provider !== "sqlite") throw new Error("the writers bench is SQLite's");
    const script = path.join(ROOT, "bench/writer-process.ts");
    const envOf = (index: number) =>
      appEnv(database, { WRITER_FIRST_ID: String(BigInt(index + 1) * IDS_PER_WRITER), WRITER_SECONDS: String(SECONDS), WRITER_IN_FLIGHT: String(IN_FLIGHT) });
    if (throughPrimary) {
      plantWriter = storePlantsForWorkers(config.path);
      cluster.setupPrimary({ exec: script, execArgv: ["--import", "tsx"], cwd: ROOT });
    }
    const children = Array.from({ length: writers }, (_, index) =>
      plantWriter
        ? cluster.fork({ ...envOf(index), [WORKER_PLACE_VARIABLE]: String(index), ...plantWriter.workerEnv }).process
        : fork(script, { execArgv: ["--import", "tsx"], cwd: ROOT, env: envOf(index) }),
    );
    const exited = children.map(
      (child) => new Promise<void>((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`a writer exited with ${code}`))))),
    );
    // A writer that fails ends the round at once, whatever it was waited for.
    const failed = Promise.all(exited).then(() => new Promise<never>(() => {}));
    await Promise.race([failed, Promise.all(children.map((child) => nextMessage(child, (message) => message === "ready")))]);
    const started = performance.now();
    const reports = Promise.all(children.map((child) => nextMessage(child, isReport)));
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
    plantWriter?.close();
    await database.drop();
  }
}

export async function benchWriters(): Promise<void> {
  console.log(
    `BENCH_SCALING=writers: ${WRITERS} processes against 1 on one SQLite file, each writing its own plants and as cluster workers whose primary writes them all, ${IN_FLIGHT} creates in flight each, ${ROUNDS} rounds of ${SECONDS} s`,
  );
  const [ownRatios, primaryRatios] = [[] as number[], [] as number[]];
  const show = ({ plantsPerSecond, p99 }: Round) => `${plantsPerSecond.toFixed(0)} plants/s (p99 ${p99.toFixed(1)} ms)`;
  for (let index = 0; index < ROUNDS; index++) {
    const one = await round(1);
    const own = await round(WRITERS);
    const primary = await round(WRITERS, { throughPrimary: true });
    ownRatios.push(own.plantsPerSecond / one.plantsPerSecond);
    primaryRatios.push(primary.plantsPerSecond / one.plantsPerSecond);
    console.log(`  round ${index + 1}: 1 process ${show(one)}; ${WRITERS} writing their own ${show(own)}; ${WRITERS} through the primary ${show(primary)}`);
  }
  console.log(`  ${WRITERS} processes against 1: writing their own ${spread(ownRatios)}, through the primary ${spread(primaryRatios)}`);
}

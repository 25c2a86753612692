// npm run bench:startup: how long `npm start` takes to serve, from the spawn of
// its process to every worker listening (the primary's "listening" line; with
// WEB_CONCURRENCY=1 the one process's), and on to every worker having answered
// GET /readyz with 200 ("ready": a worker listens before Next.js has loaded
// its routes, and its first answer waits for them), on a fresh database of each
// engine, as an operator starts it. Each round starts the server, reads its log
// lines as they come, asks /readyz on as many connections at once as there are
// workers until each worker has answered (the request log names it), and
// stops the server again with SIGTERM. Prints each round: both times, when the
// primary forked the workers and when each worker listened (workers that wait
// for each other would listen one after the other), and the CPU time the
// processes had used by each (on a busy machine the wall time mostly measures
// the other work; the CPU time much less so). Then the median with the lowest
// and highest round, per build, engine and WEB_CONCURRENCY.
//   BENCH_WORKERS        WEB_CONCURRENCY values, comma-separated (default 1,2)
//   BENCH_DATABASES      engines, comma-separated (default sqlite,postgresql)
//   BENCH_ROUNDS         starts per build, engine and WEB_CONCURRENCY (default 5)
//   BENCH_BASELINE_ROOT  a built checkout of another commit (see bench/session.ts): its
//                        start in the same rounds, taking turns with this build's, and
//                        the ratio of this build's time to it, round by round
// The load average is printed before and after: the figures are only as quiet as the machine.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { spread } from "@/bench/load";
import { treeCpuMs } from "@/bench/process-tree";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { appEnv, startScriptArguments } from "@/test/support/app-env";
import { freePort } from "@/test/support/app-server";
import { send } from "@/test/support/worker-requests";
import { makeTestDatabase } from "@/test/support/test-database";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",");
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",") as DatabaseProvider[];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
// A hang guard: a start that takes this long has failed, on any machine.
const LONGEST_START_MS = 180_000;

type Build = { name: string; root: string };
type Start = { listeningMs: number; listeningCpuMs: number; readyMs: number; readyCpuMs: number; forkedMs?: number; workersMs: number[] };
type LogLine = { message?: string; path?: string; status?: number; worker?: number };

/** Starts the build's server, times its start from the spawn, and stops it again. */
async function timeStart(build: Build, engine: DatabaseProvider, workers: string): Promise<Start> {
  const database = await makeTestDatabase(engine);
  const port = await freePort();
  const env = appEnv(database, { HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: "off", WEB_CONCURRENCY: workers, LOG_LEVEL: "debug" });
  const serverArguments = startScriptArguments(build.root).map((arg) => (arg.startsWith("-") ? arg : path.join(build.root, arg)));
  const places = Number(workers);
  const spawnedAt = performance.now();
  const server = spawn(process.execPath, serverArguments, { cwd: build.root, env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => server.once("close", (code) => resolve(code)));
  let stderr = "";
  server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let start: Start;
  let code: number | null;
  try {
    start = await new Promise<Start>((resolve, reject) => {
      const workersMs: number[] = [];
      const ready = new Set<number>();
      let forkedMs: number | undefined;
      let listening: { ms: number; cpuMs: number } | undefined;
      const guard = setTimeout(() => reject(new Error(`${build.name} did not start within ${LONGEST_START_MS / 1000} s`)), LONGEST_START_MS);
      server.once("exit", (code) => reject(new Error(`${build.name} exited with ${code} while it started:\n${stderr}`)));
      createInterface({ input: server.stdout! }).on("line", (text) => {
        const atMs = performance.now() - spawnedAt;
        const line = parseLine(text);
        if (line.message === "starting workers") forkedMs = atMs;
        if (line.message === "worker listening") workersMs.push(atMs);
        if (line.message === "listening") {
          // Read at once: the server goes on loading in the background (Next.js preloads its routes).
          listening = { ms: atMs, cpuMs: treeCpuMs(server.pid) };
          void askReadiness(port, places, () => ready.size === places);
        }
        // Ready: each worker has answered a request, which waits for whatever it still loads (probes log at debug).
        if (line.message !== "request" || line.path !== "/readyz" || line.status !== 200 || !listening) return;
        ready.add(line.worker ?? 0);
        if (ready.size < places) return;
        clearTimeout(guard);
        resolve({ listeningMs: listening.ms, listeningCpuMs: listening.cpuMs, readyMs: atMs, readyCpuMs: treeCpuMs(server.pid), forkedMs, workersMs });
      });
    });
  } finally {
    server.kill("SIGTERM");
    code = await exited;
    await database.drop();
  }
  if (code !== 0) throw new Error(`${build.name} exited with ${code} on SIGTERM:\n${stderr}`);
  return start;
}

/**
 * Asks /readyz on as many new connections at once as there are workers (the primary hands each to the next
 * worker), again until `done`: its answers are read from the request log, which names the worker.
 */
async function askReadiness(port: number, workers: number, done: () => boolean): Promise<void> {
  while (!done()) {
    await Promise.all(Array.from({ length: workers }, () => send(`http://127.0.0.1:${port}/readyz`).catch(() => undefined)));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function parseLine(text: string): LogLine {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return {}; // Next's own lines are not JSON
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

function describeStart(start: Start): string {
  const workers = start.workersMs.length > 0 ? `; forked at ${seconds(start.forkedMs ?? Number.NaN)} s, workers listening at ${start.workersMs.map(seconds).join(", ")} s` : "";
  return `listening at ${seconds(start.listeningMs).padStart(6)} s (CPU ${seconds(start.listeningCpuMs)} s), ready at ${seconds(start.readyMs).padStart(6)} s (CPU ${seconds(start.readyCpuMs)} s)${workers}`;
}

async function main(): Promise<void> {
  if (BASELINE_ROOT && !existsSync(path.join(BASELINE_ROOT, ".next/BUILD_ID"))) throw new Error("BENCH_BASELINE_ROOT must be a built checkout (see bench/session.ts)");
  const builds: Build[] = [{ name: "this build", root: ROOT }, ...(BASELINE_ROOT ? [{ name: "baseline", root: BASELINE_ROOT }] : [])];
  console.log(`load average before: ${loadavg().map((each) => each.toFixed(2)).join(", ")}`);
  const results = new Map<string, Start[]>();
  const key = (build: Build, engine: DatabaseProvider, workers: string) => `${build.name}, ${engine}, WEB_CONCURRENCY=${workers}`;
  for (const engine of ENGINES) {
    for (const workers of WORKERS) {
      for (let round = 1; round <= ROUNDS; round++) {
        // Taking turns, so that both builds meet the same drift of a shared machine.
        for (const build of round % 2 ? builds : [...builds].reverse()) {
          const start = await timeStart(build, engine, workers);
          results.set(key(build, engine, workers), [...(results.get(key(build, engine, workers)) ?? []), start]);
          console.log(`${key(build, engine, workers).padEnd(54)} round ${round}: ${describeStart(start)}`);
        }
      }
    }
  }
  console.log(`load average after: ${loadavg().map((each) => each.toFixed(2)).join(", ")}`);
  console.log(`\nmedian over ${ROUNDS} rounds (lowest to highest), seconds from the spawn: every worker listening, every worker answered /readyz 200; CPU seconds used by then`);
  for (const engine of ENGINES) {
    for (const workers of WORKERS) {
      for (const build of builds) {
        const starts = results.get(key(build, engine, workers))!;
        const column = (pick: (start: Start) => number) => spread(starts.map((start) => pick(start) / 1000));
        console.log(
          `  ${key(build, engine, workers).padEnd(54)} listening ${column((start) => start.listeningMs)} s, CPU ${column((start) => start.listeningCpuMs)} s; ready ${column((start) => start.readyMs)} s, CPU ${column((start) => start.readyCpuMs)} s`,
        );
      }
      if (builds.length < 2) continue;
      const [current, baseline] = builds.map((build) => results.get(key(build, engine, workers))!);
      const ratio = (pick: (start: Start) => number) => spread(current!.map((start, round) => pick(start) / pick(baseline![round]!)));
      console.log(
        `  ${`this build / baseline, ${engine}, WEB_CONCURRENCY=${workers}`.padEnd(54)} listening ${ratio((start) => start.listeningMs)}, CPU ${ratio((start) => start.listeningCpuMs)}; ready ${ratio((start) => start.readyMs)}, CPU ${ratio((start) => start.readyCpuMs)}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

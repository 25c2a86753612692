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
// the other work; the CPU time much less so). With more than one worker, each
// round then times what crash recovery pays: it kills one worker (SIGKILL) and
// times, from the kill, the primary's word of its death, its replacement
// listening, and the replacement's first /readyz answered 200, with the CPU
// time the replacement alone had used by each. Then the median with the lowest
// and highest round, per build, engine and WEB_CONCURRENCY.
//   BENCH_WORKERS        WEB_CONCURRENCY values, comma-separated (default 1,2)
//   BENCH_DATABASES      engines, comma-separated (default sqlite,postgresql)
//   BENCH_ROUNDS         starts per build, engine and WEB_CONCURRENCY (default 5)
//   BENCH_BASELINE_ROOT  a built checkout of another commit (see bench/session.ts): its
//                        start in the same rounds, taking turns with this build's, and
//                        the ratio of this build's time to it, round by round
// The load average is printed before and after: the figures are only as quiet as the machine.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { createInterface, type Interface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { spread } from "@/bench/load";
import { processCpuMs, processRole, treeCpuMs } from "@/bench/process-tree";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { SETTLED_MS } from "@/lib/server/cluster-role";
import { appEnv, startScriptArguments } from "@/test/support/app-env";
import { freePort } from "@/test/support/app-server";
import { send } from "@/test/support/worker-requests";
import { childPids } from "@/test/support/process-tree";
import { makeTestDatabase } from "@/test/support/test-database";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",");
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",") as DatabaseProvider[];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
// A hang guard: a start that takes this long has failed, on any machine.
const LONGEST_START_MS = 180_000;
// The primary replaces a worker that dies within this long of its fork only after a pause (a crash at start may
// come again: SETTLED_MS, lib/server/cluster-role.ts); one that has served longer is replaced at once, as a
// crash in service is. The kill waits that long after the fork, and a little more for the fork's own time.
const SETTLED_MARGIN_MS = 1_000;
// The place whose worker is killed: any would do, and always the same one keeps the rounds alike.
const KILLED_PLACE = 0;

type Build = { name: string; root: string };
/** Milliseconds from the kill; CPU: the replacement process's own. */
type Replacement = { diedMs: number; listeningMs: number; listeningCpuMs: number; readyMs: number; readyCpuMs: number };
type Start = { listeningMs: number; listeningCpuMs: number; readyMs: number; readyCpuMs: number; forkedMs?: number; workersMs: number[]; replacement?: Replacement };
type LogLine = { message?: string; path?: string; status?: number; worker?: number; pid?: number; delayMs?: number };
/** The server under test: its process, its log as it comes, and when it was spawned. */
type Running = { name: string; process: ChildProcess; lines: Interface; spawnedAt: number; stderr: () => string };
/** Starts asking /readyz until `done` (askReadiness). */
type Ask = (done: () => boolean) => void;
/** Reads one log line, with its time from the spawn; returns the result once the line completes it. */
type LineReader<T> = (line: LogLine, atMs: number) => T | undefined;

/** Starts the build's server, times its start from the spawn (and with several workers a replacement's), and stops it again. */
async function timeStart(build: Build, engine: DatabaseProvider, workers: string): Promise<Start> {
  const database = await makeTestDatabase(engine);
  const port = await freePort();
  const env = appEnv(database, { HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: "off", WEB_CONCURRENCY: workers, LOG_LEVEL: "debug" });
  const serverArguments = startScriptArguments(build.root).map((arg) => (arg.startsWith("-") ? arg : path.join(build.root, arg)));
  const places = Number(workers);
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, serverArguments, { cwd: build.root, env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // One reader for the whole round: it drains stdout between the phases too, so the server never blocks on it.
  const server: Running = { name: build.name, process: child, lines: createInterface({ input: child.stdout! }), spawnedAt, stderr: () => stderr };
  let asking = Promise.resolve();
  const ask: Ask = (done) => {
    asking = askReadiness(port, places, done);
  };
  let start: Start;
  let code: number | null;
  try {
    start = await untilLine(server, "its start", firstStart(places, child.pid, ask));
    if (places > 1) {
      // The start's last requests answered first: none is then on its way to the worker about to be killed.
      await asking;
      start = { ...start, replacement: await timeReplacement(server, start.forkedMs!, ask) };
    }
  } finally {
    child.kill("SIGTERM");
    code = await exited;
    await database.drop();
  }
  if (code !== 0) throw new Error(`${build.name} exited with ${code} on SIGTERM:\n${stderr}`);
  return start;
}

/**
 * Resolves with what `read` returns once a line of the server's log completes it; rejects if the server exits
 * first, `read` throws, or it takes longer than the hang guard. Stops reading either way.
 */
function untilLine<T>(server: Running, what: string, read: LineReader<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const guard = setTimeout(() => fail(new Error(`${server.name}: no end to ${what} within ${LONGEST_START_MS / 1000} s`)), LONGEST_START_MS);
    const onExit = (code: number | null) => fail(new Error(`${server.name} exited with ${code} during ${what}:\n${server.stderr()}`));
    const onLine = (text: string) => {
      const atMs = performance.now() - server.spawnedAt;
      let result: T | undefined;
      try {
        result = read(parseLine(text), atMs);
      } catch (error) {
        // Thrown from an event listener it would end the bench without stopping the server.
        fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (result === undefined) return;
      stopReading();
      resolve(result);
    };
    function fail(error: Error): void {
      stopReading();
      reject(error);
    }
    function stopReading(): void {
      clearTimeout(guard);
      server.process.off("exit", onExit);
      server.lines.off("line", onLine);
    }
    server.process.once("exit", onExit);
    server.lines.on("line", onLine);
  });
}

/** The first start: every worker listening (the primary's "listening"), then every worker having answered /readyz 200. */
function firstStart(places: number, pid: number | undefined, ask: Ask): LineReader<Start> {
  const workersMs: number[] = [];
  const ready = new Set<number>();
  let forkedMs: number | undefined;
  let listening: { ms: number; cpuMs: number } | undefined;
  return (line, atMs) => {
    if (line.message === "starting workers") forkedMs = atMs;
    if (line.message === "worker listening") workersMs.push(atMs);
    if (line.message === "listening") {
      // Read at once: the server goes on loading in the background (Next.js preloads its routes).
      listening = { ms: atMs, cpuMs: treeCpuMs(pid) };
      ask(() => ready.size === places);
    }
    // Ready: each worker has answered a request, which waits for whatever it still loads (probes log at debug).
    if (!isReadyAnswer(line) || !listening) return undefined;
    ready.add(line.worker ?? 0);
    if (ready.size < places) return undefined;
    return { listeningMs: listening.ms, listeningCpuMs: listening.cpuMs, readyMs: atMs, readyCpuMs: treeCpuMs(pid), forkedMs, workersMs };
  };
}

/**
 * Kills the worker in KILLED_PLACE with SIGKILL, as a crash would end it, once its death no longer counts as one at
 * start, and times its replacement from the kill.
 */
async function timeReplacement(server: Running, forkedMs: number, ask: Ask): Promise<Replacement> {
  await sleep(Math.max(0, forkedMs + SETTLED_MS + SETTLED_MARGIN_MS - (performance.now() - server.spawnedAt)));
  const primary = server.process.pid!;
  const victim = workerPid(primary, KILLED_PLACE);
  const killedMs = performance.now() - server.spawnedAt;
  // Reading before the kill: the primary's word of the death can come at once.
  const replaced = untilLine(server, "the replacement of a worker", replacement(primary, victim, killedMs, ask));
  process.kill(victim, "SIGKILL");
  return replaced;
}

/**
 * The replacement of the killed worker `victim` in KILLED_PLACE, from the kill: the primary's "a worker died", the
 * replacement's "worker listening", and its first /readyz answered 200 (the place is kept by the replacement).
 */
function replacement(primary: number, victim: number, killedMs: number, ask: Ask): LineReader<Replacement> {
  let diedMs: number | undefined;
  let listening: { ms: number; cpuMs: number; pid: number } | undefined;
  let answered = false;
  return (line, atMs) => {
    const ms = atMs - killedMs;
    if (line.message === "a worker died; starting another in its place" && line.pid === victim) {
      // A pause would be the primary's back-off from a crash at start, not what a crash in service pays.
      if (line.delayMs !== 0) throw new Error(`the primary waits ${line.delayMs} ms before the replacement: the kill came within ${SETTLED_MS / 1000} s of the fork`);
      diedMs = ms;
    }
    if (line.message === "worker listening" && line.worker === KILLED_PLACE && diedMs !== undefined) {
      // Read at once, as the first start's: the replacement goes on loading Next.js's routes.
      const pid = workerPid(primary, KILLED_PLACE, victim);
      listening = { ms, cpuMs: processCpuMs(pid) ?? Number.NaN, pid };
      // Only now: it cannot answer before it listens, and asking the other worker meanwhile would take CPU from it.
      ask(() => answered);
    }
    if (!isReadyAnswer(line) || line.worker !== KILLED_PLACE || !listening) return undefined;
    answered = true;
    return { diedMs: diedMs!, listeningMs: listening.ms, listeningCpuMs: listening.cpuMs, readyMs: ms, readyCpuMs: processCpuMs(listening.pid) ?? Number.NaN };
  };
}

/** A worker's answer to /readyz, 200, from the request log (at LOG_LEVEL=debug). */
function isReadyAnswer(line: LogLine): boolean {
  return line.message === "request" && line.path === "/readyz" && line.status === 200;
}

/** The pid of the primary's worker in `place`, but `killed` (dead, it stays the primary's child until reaped). */
function workerPid(primary: number, place: number, killed?: number): number {
  const pid = childPids(primary).find((each) => each !== killed && processRole(each, primary) === `worker ${place}`);
  if (pid === undefined) throw new Error(`the primary ${primary} has no worker in place ${place}`);
  return pid;
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
  const replaced = start.replacement ? `; ${describeReplacement(start.replacement)}` : "";
  return `listening at ${seconds(start.listeningMs).padStart(6)} s (CPU ${seconds(start.listeningCpuMs)} s), ready at ${seconds(start.readyMs).padStart(6)} s (CPU ${seconds(start.readyCpuMs)} s)${workers}${replaced}`;
}

function describeReplacement(replacement: Replacement): string {
  return `worker ${KILLED_PLACE} killed: died logged at ${seconds(replacement.diedMs)} s, replacement listening at ${seconds(replacement.listeningMs)} s (CPU ${seconds(replacement.listeningCpuMs)} s), ready at ${seconds(replacement.readyMs)} s (CPU ${seconds(replacement.readyCpuMs)} s) from the kill`;
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
  console.log(`with several workers, a replacement: seconds from the kill of one worker until the primary logged its death, its replacement listened, and answered /readyz 200; CPU seconds the replacement used by then`);
  for (const engine of ENGINES) {
    for (const workers of WORKERS) {
      for (const build of builds) {
        const starts = results.get(key(build, engine, workers))!;
        const column = (pick: (start: Start) => number) => spread(starts.map((start) => pick(start) / 1000));
        const replaced = starts[0]!.replacement
          ? `; replacement: died logged ${column((start) => start.replacement!.diedMs)} s, listening ${column((start) => start.replacement!.listeningMs)} s, ready ${column((start) => start.replacement!.readyMs)} s, CPU ${column((start) => start.replacement!.readyCpuMs)} s`
          : "";
        console.log(
          `  ${key(build, engine, workers).padEnd(54)} listening ${column((start) => start.listeningMs)} s, CPU ${column((start) => start.listeningCpuMs)} s; ready ${column((start) => start.readyMs)} s, CPU ${column((start) => start.readyCpuMs)} s${replaced}`,
        );
      }
      if (builds.length < 2) continue;
      const [current, baseline] = builds.map((build) => results.get(key(build, engine, workers))!);
      const ratio = (pick: (start: Start) => number) => spread(current!.map((start, round) => pick(start) / pick(baseline![round]!)));
      const replaced = current![0]!.replacement
        ? `; replacement ready ${ratio((start) => start.replacement!.readyMs)}, CPU ${ratio((start) => start.replacement!.readyCpuMs)}`
        : "";
      console.log(
        `  ${`this build / baseline, ${engine}, WEB_CONCURRENCY=${workers}`.padEnd(54)} listening ${ratio((start) => start.listeningMs)}, CPU ${ratio((start) => start.listeningCpuMs)}; ready ${ratio((start) => start.readyMs)}, CPU ${ratio((start) => start.readyCpuMs)}${replaced}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// npm run bench:live: the change feed (issue 32) with many streams open. The
// built app (a worker per core) on a fresh database of each engine, then:
// 1. resident memory per stream: the server's process tree (PSS) before and
//    after BENCH_STREAMS streams (10,000) that follow every change are open;
// 2. with those open, plants created at BENCH_RATE a second (50) for
//    BENCH_SECONDS (10): from each create's 200 to its event read by a
//    stream, on BENCH_SAMPLED streams (200) that parse every event, p50 and
//    p99, and the p99 of the last of them per create; every other stream
//    counts its events, and the bench fails unless every stream got every one;
// 3. POST /plants throughput with BENCH_IDLE streams open (1,000) that no
//    change matches, against none, side by side in alternating rounds: the
//    ratio, its median and range.
// The streams are this process's raw sockets (node:http, no agent); the npm
// script raises the file limit to its hard limit (20,000 here: the bench and
// each of the server's workers hold a socket per stream).
//   BENCH_DATABASES  engines, comma-separated (default sqlite)
//   BENCH_WORKERS    the server's workers (default: one per core, as npm start runs)
//   BENCH_OUTPUT     1: keep the server's output, and print its last lines (requests aside) if the bench fails
import { existsSync } from "node:fs";
import { type ClientRequest, request as httpRequest, type IncomingMessage } from "node:http";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { load, median, spread } from "@/bench/load";
import { processTree, proportionalBytes } from "@/bench/process-tree";
import type { AppServer } from "@/test/support/app-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite").split(",") as DatabaseProvider[];
const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const IDLE = Number(process.env.BENCH_IDLE ?? 1_000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SAMPLED = Number(process.env.BENCH_SAMPLED ?? 200);
const ROUNDS = 3;
const ROUND_SECONDS = 10;
const OPENING_AT_ONCE = 200;

const EVENT = Buffer.from("event: plant.created");
const PLANT_ID = /"data":\{"id":(\d+)/g;

type Stream = { request: ClientRequest; response?: IncomingMessage; events: number; arrivals?: Map<bigint, number> };

/** Opens `count` streams, OPENING_AT_ONCE at a time; resolves once each has answered 200. */
async function openStreams(app: AppServer, headers: Record<string, string>, count: number, query: string, sampled = 0): Promise<Stream[]> {
  const streams: Stream[] = [];
  const openOne = (index: number) =>
    new Promise<Stream>((resolve, reject) => {
      const stream: Stream = { request: undefined as unknown as ClientRequest, events: 0, ...(index < sampled && { arrivals: new Map() }) };
      stream.request = httpRequest(`${app.url}/plants/events${query}`, { headers: { ...headers, accept: "text/event-stream" }, agent: false }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`a stream answered ${response.statusCode}`));
        stream.response = response;
        response.on("data", (chunk: Buffer) => {
          if (stream.arrivals) {
            const at = performance.now();
            for (const [, id] of chunk.toString().matchAll(PLANT_ID)) stream.arrivals.set(BigInt(id!), at);
          }
          for (let from = chunk.indexOf(EVENT); from !== -1; from = chunk.indexOf(EVENT, from + EVENT.length)) stream.events++;
        });
        resolve(stream);
      });
      stream.request.on("error", reject);
      stream.request.end();
    });
  for (let index = 0; index < count; index += OPENING_AT_ONCE) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, count - index) }, (_, offset) => openOne(index + offset)))));
  }
  return streams;
}

function closeStreams(streams: Stream[]): void {
  for (const stream of streams) stream.request.destroy();
}

const treeBytes = (pid: number) => processTree(pid).reduce((sum, each) => sum + (proportionalBytes(each) ?? 0), 0);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

let nextId = 9_007_199_254_740_993n;

/** Creates plants at RATE a second for SECONDS, each on the same kept-alive connection pool; answers each one's id and the time of its 200. */
async function createAtRate(app: AppServer, headers: Record<string, string>): Promise<Map<bigint, number>> {
  const answered = new Map<bigint, number>();
  const total = RATE * SECONDS;
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let index = 0; index < total; index++) {
    const due = started + (index * 1000) / RATE;
    await settle(Math.max(0, due - performance.now()));
    const id = nextId++;
    sends.push(
      fetch(`${app.url}/plants`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: `{"id":${id},"name":"Live fern"}` }).then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`a create answered ${response.status}`);
        answered.set(id, performance.now());
      }),
    );
  }
  await Promise.all(sends);
  return answered;
}

async function measure(engine: DatabaseProvider): Promise<void> {
  // A worker per core, as `npm start` runs by default (the tests' apps run one process unless asked).
  const env = { WEB_CONCURRENCY: process.env.BENCH_WORKERS ?? String(availableParallelism()), LIVE_STREAMS_PER_CALLER: "1000000", LIVE_STREAMS_PER_ADDRESS: "1000000" };
  const { app, headers } = await startBenchApp(engine, { stored: 0, env, keepOutput: process.env.BENCH_OUTPUT === "1", nodeOptions: process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : [] });
  try {
    const pid = app.pid()!;
    const target = { url: app.url, headers, pid: app.pid };
    // 1. Memory per stream, on a server that has served (a warm-up) but held no stream yet.
    await load(target, "POST", 3);
    await settle(2_000);
    const before = treeBytes(pid);
    const streams = await openStreams(app, headers, STREAMS, "", SAMPLED);
    await settle(5_000);
    const after = treeBytes(pid);
    console.log(`  ${engine.padEnd(11)} ${STREAMS} streams open: the server's processes grew ${((after - before) / 2 ** 20).toFixed(0)} MB, ${((after - before) / STREAMS / 1024).toFixed(1)} KB a stream`);

    // 2. From a create's 200 to its event on every stream.
    const answered = await createAtRate(app, headers);
    const total = answered.size;
    const deadline = Date.now() + 120_000;
    while (streams.some((stream) => stream.events < total) && Date.now() < deadline) await settle(200);
    const short = streams.filter((stream) => stream.events < total).length;
    const latencies: number[] = [];
    const lastPerCreate: number[] = [];
    for (const [id, at] of answered) {
      let last = Number.NEGATIVE_INFINITY;
      for (const stream of streams) {
        const arrived = stream.arrivals?.get(id);
        if (arrived === undefined) continue;
        latencies.push(arrived - at);
        last = Math.max(last, arrived - at);
      }
      lastPerCreate.push(last);
    }
    latencies.sort((a, b) => a - b);
    lastPerCreate.sort((a, b) => a - b);
    console.log(
      `  ${engine.padEnd(11)} ${total} creates at ${RATE}/s to ${STREAMS} streams: 200 to event p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms` +
        ` (${SAMPLED} streams timed); the last stream per create p99 ${percentile(lastPerCreate, 99).toFixed(0)} ms; streams short of an event: ${short}`,
    );
    closeStreams(streams);
    if (short > 0) process.exitCode = 1;
    // 3. Throughput with idle streams open against none, alternating.
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const none = await load(target, "POST", ROUND_SECONDS);
      const idle = await openStreams(app, headers, IDLE, "?id=-1");
      const withIdle = await load(target, "POST", ROUND_SECONDS);
      closeStreams(idle);
      ratios.push(withIdle.requestsPerSecond / none.requestsPerSecond);
      console.log(`  ${engine.padEnd(11)} round ${round + 1}: ${none.requestsPerSecond.toFixed(0)} creates/s with no stream, ${withIdle.requestsPerSecond.toFixed(0)} with ${IDLE} idle streams`);
    }
    console.log(`  ${engine.padEnd(11)} POST /plants with ${IDLE} idle streams open: ${median(ratios).toFixed(2)} of none (${spread(ratios)})`);

  } catch (error) {
    if (process.env.BENCH_OUTPUT === "1") console.error(app.output().split("\n").filter((line) => !line.includes('"message":"request"')).slice(-20).join("\n"));
    throw error;
  } finally {
    await stopBenchApp(app);
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  console.log(`bench:live: ${STREAMS} streams, ${IDLE} idle, ${RATE} creates/s for ${SECONDS} s`);
  for (const engine of ENGINES) await measure(engine);
}

main().catch((error: unknown) => {
  // fetch's own message ("fetch failed") says nothing: its cause does (a reset, a refused connection, no file descriptor left).
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  console.error(error instanceof Error ? `${error.message}${cause}` : error);
  process.exit(1);
});

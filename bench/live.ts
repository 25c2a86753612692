// npm run bench:live: the change feed (issue 32) with many streams open. The
// built app (a worker per core) on a fresh database of each engine, then:
// 1. resident memory per stream: the server's process tree (PSS) before and
//    after BENCH_STREAMS streams (10,000) that follow every change are open;
// 2. with those open, plants created at BENCH_RATE a second (50) for
//    BENCH_SECONDS (10): from each create's 200 to its event read by every
//    stream, p50 and p99 over every (stream, event), and the p99 of the last
//    stream per create; the bench fails unless every stream got every event.
//    Each stream notes when each of its events arrived; one of them reads the
//    plants' ids, as every stream is sent the same events in the same order;
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
import { connect, type Socket } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { load, spread } from "@/bench/load";
import { processTree, proportionalBytes } from "@/bench/process-tree";
import type { AppServer } from "@/test/support/app-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite").split(",") as DatabaseProvider[];
const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const IDLE = Number(process.env.BENCH_IDLE ?? 1_000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Rounds of part 3: even, as each pair of rounds measures the two sides in both orders. */
const ROUNDS = 4;
const ROUND_SECONDS = 10;
const OPENING_AT_ONCE = 200;

const EVENT = Buffer.from("event: plant.created");
const READ_BUFFER = Buffer.alloc(64 * 1024);
const PLANT_ID = /"data":\{"id":(\d+)/g;

/** A stream: how many events it was sent, when each arrived (performance.now()), and, on one of them, each one's plant id. */
type Stream = { socket: Socket; events: number; arrivals: Float64Array; ids?: bigint[] };

/**
 * Opens `count` streams, OPENING_AT_ONCE at a time, timing up to `expected` events each; resolves once
 * each has answered 200. Each is a plain socket that finds the events in the bytes as they come, with no
 * HTTP parser and no stream machinery: the bench's client shares the machine's two cores with the
 * server, and the less it costs to read, the more the figures say about the server.
 */
async function openStreams(app: AppServer, headers: Record<string, string>, count: number, query: string, expected = 0): Promise<Stream[]> {
  const { hostname, port } = new URL(app.url);
  const head = [`GET /plants/events${query} HTTP/1.1`, `Host: ${hostname}:${port}`, "Accept: text/event-stream", ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join("\r\n");
  const streams: Stream[] = [];
  const openOne = (index: number) =>
    new Promise<Stream>((resolve, reject) => {
      // Read into one buffer for every socket (each read is handled before the next), with no stream machinery per read.
      const socket = connect({
        port: Number(port),
        host: hostname,
        onread: {
          buffer: READ_BUFFER,
          callback: (length) => {
            received(READ_BUFFER.subarray(0, length));
            return true;
          },
        },
      });
      const stream: Stream = { socket, events: 0, arrivals: new Float64Array(expected), ...(index === 0 && { ids: [] }) };
      // The answer's head, until it is whole.
      let answer: string | undefined = "";
      // The end of the bytes before, where an event's name may have begun; and, for the ids, the text after the last whole event.
      let edge = Buffer.alloc(0);
      let text = "";
      const read = (chunk: Buffer) => {
        const at = performance.now();
        let found = Buffer.concat([edge, chunk.subarray(0, EVENT.length - 1)]).includes(EVENT) ? 1 : 0;
        for (let from = chunk.indexOf(EVENT); from !== -1; from = chunk.indexOf(EVENT, from + EVENT.length)) found++;
        edge = Buffer.from(chunk.subarray(-(EVENT.length - 1)));
        for (; found > 0; found--) {
          if (stream.events < expected) stream.arrivals[stream.events] = at;
          stream.events++;
        }
        if (stream.ids) {
          text += chunk.toString();
          const whole = text.lastIndexOf("\n\n");
          for (const [, id] of text.slice(0, whole).matchAll(PLANT_ID)) stream.ids.push(BigInt(id!));
          text = text.slice(whole + 2);
        }
      };
      const received = (chunk: Buffer): void => {
        if (answer === undefined) return read(chunk);
        answer += chunk.toString("latin1");
        const ends = answer.indexOf("\r\n\r\n");
        if (ends === -1) return;
        if (!answer.startsWith("HTTP/1.1 200 ")) return reject(new Error(`a stream answered ${answer.split("\r\n")[0]}`));
        const body = chunk.subarray(chunk.length - (answer.length - ends - 4));
        answer = undefined;
        read(body);
        resolve(stream);
      };
      socket.on("error", reject);
      socket.write(`${head}\r\n\r\n`);
    });
  for (let index = 0; index < count; index += OPENING_AT_ONCE) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, count - index) }, (_, offset) => openOne(index + offset)))));
  }
  return streams;
}

function closeStreams(streams: Stream[]): void {
  for (const stream of streams) stream.socket.destroy();
}

const treeBytes = (pid: number) => processTree(pid).reduce((sum, each) => sum + (proportionalBytes(each) ?? 0), 0);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: ArrayLike<number>, p: number): number {
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
    const opening = performance.now();
    const streams = await openStreams(app, headers, STREAMS, "", RATE * SECONDS);
    const opened = (performance.now() - opening) / 1000;
    await settle(5_000);
    const after = treeBytes(pid);
    console.log(
      `  ${engine.padEnd(11)} ${STREAMS} streams opened in ${opened.toFixed(1)} s: the server's processes grew ${((after - before) / 2 ** 20).toFixed(0)} MB, ${((after - before) / STREAMS / 1024).toFixed(1)} KB a stream`,
    );

    // 2. From a create's 200 to its event on every stream.
    if (process.env.BENCH_TRACE) console.log("creates start", new Date().toISOString());
    const answered = await createAtRate(app, headers);
    if (process.env.BENCH_TRACE) console.log("creates end", new Date().toISOString());
    const total = answered.size;
    const deadline = Date.now() + 120_000;
    while (streams.some((stream) => stream.events < total) && Date.now() < deadline) await settle(200);
    if (process.env.BENCH_TRACE) console.log("all events", new Date().toISOString());
    const short = streams.filter((stream) => stream.events < total).length;
    // The k-th event of every stream is the k-th change: its plant, read by the stream that reads ids.
    const answeredAt = streams[0]!.ids!.map((id) => answered.get(id)!);
    const latencies = new Float64Array(streams.length * answeredAt.length);
    const lastPerCreate = answeredAt.map(() => Number.NEGATIVE_INFINITY);
    streams.forEach((stream, s) =>
      answeredAt.forEach((at, k) => {
        const latency = stream.arrivals[k]! - at;
        latencies[s * answeredAt.length + k] = latency;
        lastPerCreate[k] = Math.max(lastPerCreate[k]!, latency);
      }),
    );
    latencies.sort();
    lastPerCreate.sort((a, b) => a - b);
    const late = (values: ArrayLike<number>, p: number) => `${percentile(values, p).toFixed(0)} ms`;
    console.log(
      `  ${engine.padEnd(11)} ${total} creates at ${RATE}/s to ${STREAMS} streams: 200 to event p50 ${late(latencies, 50)}, p99 ${late(latencies, 99)}, max ${late(latencies, 100)}` +
        ` (every stream, every event); the last stream per create p99 ${late(lastPerCreate, 99)}; streams short of an event: ${short}`,
    );
    closeStreams(streams);
    if (short > 0) process.exitCode = 1;
    // 3. Throughput with idle streams open against none, alternating, in the order none-idle, idle-none,
    //    and so on: a server that speeds up (warming) or slows down (its database growing) as it runs
    //    then favours neither side.
    const ratios: number[] = [];
    // Warmed first, as every round's server is (the creates above warmed the path of the events, not of the POSTs' answers).
    await load(target, "POST", 5);
    const withIdle = async () => {
      const idle = await openStreams(app, headers, IDLE, "?id=-1");
      const result = await load(target, "POST", ROUND_SECONDS);
      closeStreams(idle);
      return result;
    };
    for (let round = 0; round < ROUNDS; round++) {
      const withNone = () => load(target, "POST", ROUND_SECONDS);
      const none = round % 2 === 0 ? await withNone() : undefined;
      const idle = await withIdle();
      const after = none ?? (await withNone());
      ratios.push(idle.requestsPerSecond / after.requestsPerSecond);
      console.log(`  ${engine.padEnd(11)} round ${round + 1}: ${after.requestsPerSecond.toFixed(0)} creates/s with no stream, ${idle.requestsPerSecond.toFixed(0)} with ${IDLE} idle streams`);
    }
    console.log(`  ${engine.padEnd(11)} POST /plants with ${IDLE} idle streams open, of none: ${spread(ratios)}`);

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

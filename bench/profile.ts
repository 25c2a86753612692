// npm run bench:profile: where the server's time goes under load, against
// the framework's ceiling. Runs the built app and the constant-answering
// ceiling app (bench/ceiling) each under `node --cpu-prof`, loads each with
// authenticated POST /plants (unique ids) or GET /plants?limit=20 (500 plants
// stored), stops it cleanly (so V8 writes the profile), and prints the CPU
// time per request of the load alone (start-up and warm-up left out), by
// stage: what Next.js and Node cost around the handler, and each part of
// ours (token check, body, validation, database, response, log and metrics).
// Next bundles our code; its source maps name each bundled function's file.
//   BENCH_PROFILE    POST or GET (default POST)
//   BENCH_SECONDS    length of the load (default 10)
//   BENCH_DATABASES  engine (default sqlite)
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { startBenchApp } from "@/bench/bench-app";
import { buildCeiling, startCeiling } from "@/bench/ceiling-app";
import type { DatabaseProvider } from "@/lib/db/database-url";

const ROOT = path.resolve(import.meta.dirname, "..");
const OPERATION = (process.env.BENCH_PROFILE ?? "POST").toUpperCase();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ENGINE = (process.env.BENCH_DATABASES ?? "sqlite") as DatabaseProvider;

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };
/** The load's span on the monotonic clock V8 stamps its samples with, in µs. */
type Window = { from: number; to: number; requests: number };

// Our stages, by the source file a function comes from (after the source
// map): the first rule that matches names it.
const STAGES: [string, RegExp][] = [
  ["token check", /\/lib\/auth\/|\/node_modules\/(jose|next-auth)\//],
  ["rate limit", /\/lib\/http\/rate-limit\.ts|\/node_modules\/rate-limiter-flexible\//],
  ["body reading and parsing", /\/lib\/http\/(json|csv)-body\.ts|\/lib\/json\/|\/node_modules\/(lossless-json|content-type)\//],
  ["validation (zod)", /\/lib\/http\/(parse-input|query-params)\.ts|\/lib\/validations\/|\/node_modules\/zod\//],
  ["database", /\/lib\/(db|plants|webhooks)\/|\/node_modules\/(@prisma|better-sqlite3|pg|pg-[a-z]+)\/|\/lib\/generated\//],
  ["response (JSON, headers)", /\/lib\/http\//],
  ["request log and metrics", /\/lib\/server\/(request-record|log|metrics)\.ts|\/node_modules\/(pino|sonic-boom|prom-client|tdigest|bintrees)\//],
  ["our server (headers, refusals)", /\/lib\/server\/|\/server\.ts$/],
  ["proxy", /\/proxy\.ts$/],
];
// Our code that others run inside: the server hands each request to Next,
// the route wrapper runs the handler. Their time is their callees' stage,
// Next's where Next runs under them, or else their own.
const WRAPPERS: [string, RegExp][] = [
  ["our server (headers, refusals)", /\/lib\/server\/(http-server|response-vary)\.ts$/],
  ["route wrapper and handler (own time)", /\/lib\/http\/api-route\.ts$|\/app\/.*route\.(ts|js)$/],
];
const NOT_OURS = /\/node_modules\/(next|react|react-dom)\//;

// What is not ours, by the sample's own frame.
const OTHERS: [string, RegExp][] = [
  ["Next.js", /\/node_modules\/next\/|\[turbopack\]_runtime|\/\.next\/server\//],
  ["React", /\/node_modules\/(react|react-dom|scheduler)\//],
  ["Node.js: web Request/Response and streams", /^node:internal\/(deps\/undici|webstreams|abort_controller|worker\/js_transferable|event_target)/],
  ["Node.js: async context (AsyncLocalStorage)", /^node:(internal\/)?async_hooks/],
  ["Node.js: http and the rest", /^node:/],
  ["garbage collection", /^\(garbage collector\)$/],
  ["idle", /^\(idle\)$/],
  // Frames without a file: V8's built-ins (JSON, strings, regular expressions), microtasks, the program.
  ["V8: program, built-ins, microtasks", /^[^/]/],
];

/** Maps a frame to its original source file, through the chunk's source map where Next bundled it. */
function sourceFiles(): (frame: CallFrame) => string {
  const maps = new Map<string, SourceMap | null>();
  const cache = new Map<string, string>();
  return (frame) => {
    if (!frame.url) return frame.functionName;
    const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    let file = frame.url.startsWith("file://") ? fileURLToPath(frame.url) : frame.url;
    // Next's chunks (.js), the compiled server (.cjs) and CLIs (.mjs) have their maps beside them.
    if (/\.[cm]?js$/.test(file) && !file.includes("/node_modules/")) {
      let map = maps.get(file);
      if (map === undefined) {
        map = existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))) : null;
        maps.set(file, map);
      }
      const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
      if (entry && "originalSource" in entry) file = path.resolve(path.dirname(file), entry.originalSource);
    }
    cache.set(key, file);
    return file;
  };
}

/** CPU time per request in the window, by stage, in ms. */
function stages(profile: Profile, window: Window): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const fileOf = sourceFiles();
  const stageOf = new Map<number, string>();
  // Root first: the outermost of our frames below the wrappers decides, so
  // that what a stage calls (Node's crypto, a promise's bookkeeping) is its cost.
  const decide = (id: number): string => {
    const known = stageOf.get(id);
    if (known !== undefined) return known;
    const chain: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) chain.unshift(byId.get(at)!);
    let owner: string | undefined;
    let stage: string | undefined;
    for (const node of chain) {
      const file = fileOf(node.callFrame);
      const wrapper = WRAPPERS.find(([, pattern]) => pattern.test(file))?.[0];
      if (wrapper) owner = wrapper;
      else if (NOT_OURS.test(file)) owner = undefined;
      else stage = STAGES.find(([, pattern]) => pattern.test(file))?.[0];
      if (stage) break;
    }
    const leaf = fileOf(chain.at(-1)!.callFrame);
    stage ??= owner ?? OTHERS.find(([, pattern]) => pattern.test(leaf))?.[0] ?? "other";
    stageOf.set(id, stage);
    return stage;
  };
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    at += micros;
    if (at < window.from || at > window.to) return;
    const stage = decide(id);
    totals.set(stage, (totals.get(stage) ?? 0) + micros / 1000 / window.requests);
  });
  return totals;
}

const now = () => Number(process.hrtime.bigint() / 1000n);

/** Loads `url` for a warm-up and then SECONDS, and answers the measured window. */
async function loadWindow(url: string, request: autocannon.Request): Promise<Window & { summary: string }> {
  // A warm-up first, so the profile is of a server that has compiled its hot paths.
  await autocannon({ url, connections: 50, duration: 3, requests: [request] });
  const from = now();
  const result = await autocannon({ url, connections: 50, duration: SECONDS, requests: [request] });
  const failed = result.non2xx + result.errors;
  if (failed > 0) process.exitCode = 1;
  return { from, to: now(), requests: result.requests.total, summary: `${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${failed} failed` };
}

function readProfile(directory: string): Profile {
  // One profile per thread (a worker thread has its own): the main thread's is the largest.
  const files = readdirSync(directory).filter((name) => name.endsWith(".cpuprofile"));
  const file = files.sort((a, b) => statSync(path.join(directory, b)).size - statSync(path.join(directory, a)).size)[0];
  if (!file) throw new Error(`no profile was written to ${directory}`);
  console.log(`  profile: ${path.join(directory, file)} (open it in Chrome DevTools' Performance panel)`);
  return JSON.parse(readFileSync(path.join(directory, file), "utf8")) as Profile;
}

function profileOptions(): { directory: string; nodeOptions: string[] } {
  const directory = mkdtempSync(path.join(tmpdir(), "plant-store-profile-"));
  return { directory, nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${directory}`] };
}

async function profileCeiling(): Promise<Map<string, number>> {
  const { directory, nodeOptions } = profileOptions();
  const ceiling = await startCeiling({ nodeOptions });
  let window: Window;
  try {
    window = await loadWindow(ceiling.url, { method: OPERATION === "GET" ? "GET" : "POST", path: OPERATION === "GET" ? "/plants?limit=20" : "/plants" });
    console.log(`ceiling (constant) ${OPERATION}: ${(window as Window & { summary: string }).summary}`);
  } finally {
    await ceiling.stop();
  }
  return stages(readProfile(directory), window);
}

async function profileApp(): Promise<Map<string, number>> {
  const { directory, nodeOptions } = profileOptions();
  const { app, headers } = await startBenchApp(ENGINE, { stored: OPERATION === "GET" ? 500 : 0, nodeOptions });
  let window: Window;
  try {
    let nextId = 1_000_000n;
    const request: autocannon.Request =
      OPERATION === "GET"
        ? { method: "GET", path: "/plants?limit=20", headers }
        : {
            method: "POST",
            path: "/plants",
            headers: { ...headers, "content-type": "application/json" },
            setupRequest: (each) => ({ ...each, body: `{"id":${nextId++},"name":"Bench fern","tag":"bench"}` }),
          };
    const loaded = await loadWindow(app.url, request);
    window = loaded;
    console.log(`app on ${ENGINE} ${OPERATION}: ${loaded.summary}`);
  } finally {
    const exit = await app.kill("SIGTERM");
    if (exit.code !== 0) console.error(`the server exited with ${exit.code ?? exit.signal}`);
    await app.database.drop();
  }
  return stages(readProfile(directory), window);
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  buildCeiling();
  const ceiling = await profileCeiling();
  const app = await profileApp();
  const names = [...new Set([...app.keys(), ...ceiling.keys()])].filter((name) => name !== "idle");
  const busy = (of: Map<string, number>) => names.reduce((sum, name) => sum + (of.get(name) ?? 0), 0);
  const row = (name: string, appMs: number, ceilingMs: number) =>
    `  ${name.padEnd(44)} ${appMs.toFixed(3).padStart(7)} ${ceilingMs.toFixed(3).padStart(9)} ${(appMs - ceilingMs >= 0 ? "+" : "") + (appMs - ceilingMs).toFixed(3).padStart(7)}`;
  console.log(`\nCPU time per request under load, ms (${OPERATION}, ${ENGINE}):`);
  console.log(`  ${"stage".padEnd(44)} ${"app".padStart(7)} ${"ceiling".padStart(9)} ${"diff".padStart(8)}`);
  for (const name of names.sort((a, b) => (app.get(b) ?? 0) - (app.get(a) ?? 0))) console.log(row(name, app.get(name) ?? 0, ceiling.get(name) ?? 0));
  console.log(row("all (busy)", busy(app), busy(ceiling)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// npm run bench:profile: where the server's time goes under load. Runs the
// built app under `node --cpu-prof`, loads it with authenticated POST /plants
// (unique ids) or GET /plants?limit=20 (500 plants stored), stops it cleanly
// (so V8 writes the profile), and prints the CPU time by part: Next.js itself,
// the token check, body parsing, validation, the database, logging, metrics,
// our own code, and the runtime (GC, idle).
//   BENCH_PROFILE    POST or GET (default POST)
//   BENCH_SECONDS    length of the load (default 15)
//   BENCH_DATABASES  engine (default sqlite)
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp } from "@/bench/bench-app";

const OPERATION = (process.env.BENCH_PROFILE ?? "POST").toUpperCase();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ENGINE = (process.env.BENCH_DATABASES ?? "sqlite") as DatabaseProvider;

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

// The first rule a frame's URL (or name) matches names its part.
const PARTS: [string, RegExp][] = [
  ["token check (next-auth/jose decode)", /node_modules\/(jose|next-auth)\/|lib\/auth\//],
  ["database: Prisma client", /node_modules\/@prisma\/(client|client-runtime|adapter-[a-z0-9-]+)\/|lib\/generated\//],
  ["database: driver", /node_modules\/(better-sqlite3|pg|pg-[a-z]+)\//],
  ["body parsing (lossless-json)", /node_modules\/lossless-json\/|lib\/json\//],
  ["validation (zod)", /node_modules\/zod\/|lib\/validations\//],
  ["logging (pino)", /node_modules\/(pino|sonic-boom|fast-redact|quick-format-unescaped|thread-stream)\//],
  ["metrics (prom-client)", /node_modules\/(prom-client|tdigest|bintrees)\//],
  ["rate limits", /node_modules\/rate-limiter-flexible\//],
  ["Next.js", /node_modules\/next\/|\.next\/server\/chunks\/(ssr\/)?\[turbopack\]_runtime/],
  ["React", /node_modules\/(react|react-dom|scheduler)\//],
  ["tsx (module loading)", /node_modules\/(tsx|esbuild|get-tsconfig)\//],
  // Next bundles the route handlers with lib/ and the packages they import (zod, lossless-json, jose, ...).
  ["the app's bundle (lib/, app/ and what they import)", /\/lib\/|\/app\/|\.next\/server\//],
  ["Node.js: web Request/Response and streams (Next's adapter)", /^node:internal\/(deps\/undici|webstreams|abort_controller|worker\/js_transferable|event_target)/],
  ["Node.js: async context (AsyncLocalStorage)", /^node:(internal\/)?async_hooks/],
  ["Node.js: http and the rest", /^node:/],
  ["garbage collection", /^\(garbage collector\)$/],
  ["idle", /^\(idle\)$/],
  ["V8 (program, compiled code)", /^\((program|root)\)$/],
  ["V8 built-ins (JSON, strings, microtasks)", /^[A-Za-z]*$/],
];

function partOf(node: ProfileNode): string {
  // V8's own entries have no URL and names such as "(idle)".
  const key = node.callFrame.url || node.callFrame.functionName;
  return PARTS.find(([, pattern]) => pattern.test(key))?.[0] ?? "other";
}

function summarise(profile: Profile, requests: number): void {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parts = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const part = partOf(byNode.get(id)!);
    parts.set(part, (parts.get(part) ?? 0) + micros);
    total += micros;
    if (part === "idle") idle += micros;
  });
  const busy = total - idle;
  console.log(`CPU busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s, ${((busy / requests) / 1000).toFixed(3)} ms per request; self time by part:`);
  for (const [part, micros] of [...parts].filter(([part]) => part !== "idle").sort((a, b) => b[1] - a[1])) {
    console.log(`  ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${(micros / requests / 1000).toFixed(3)} ms  ${part}`);
  }
}

async function main() {
  let requests = 0;
  const profileDir = mkdtempSync(path.join(tmpdir(), "plant-store-profile-"));
  const { app, headers } = await startBenchApp(ENGINE, {
    stored: OPERATION === "GET" ? 500 : 0,
    nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
  });
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
    // A warm-up first, so the profile is of a server that has compiled its hot paths.
    const warmUp = await autocannon({ url: app.url, connections: 50, duration: 3, requests: [request] });
    const result = await autocannon({ url: app.url, connections: 50, duration: SECONDS, requests: [request] });
    requests = warmUp.requests.total + result.requests.total + (OPERATION === "GET" ? 500 : 0);
    console.log(`${OPERATION} on ${ENGINE}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${result.non2xx + result.errors} failed`);
  } finally {
    const exit = await app.kill("SIGTERM");
    if (exit.code !== 0) console.error(`the server exited with ${exit.code ?? exit.signal}`);
    await app.database.drop();
  }
  // One profile per thread (tsx's module loader has one of its own): the main thread's is the largest.
  const files = readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"));
  const file = files.sort((a, b) => statSync(path.join(profileDir, b)).size - statSync(path.join(profileDir, a)).size)[0];
  if (!file) throw new Error(`no profile was written to ${profileDir}`);
  console.log(`profile: ${path.join(profileDir, file)} (open it in Chrome DevTools' Performance panel)`);
  // The profile spans the whole process, start-up included; per request means over every request it served.
  summarise(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as Profile, requests);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// npm run bench: authenticated POST /plants (unique ids, 50 connections, after
// a warm-up) against a constant-returning Next.js route handler, in one run,
// on this machine. Prints both, and the ratio that matters.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { createToken, freePort, startApp } from "@/lib/testing/app-server";
import { storedPlants } from "@/lib/testing/database";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CEILING = path.join(ROOT, "lib/bench/ceiling");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const CONNECTIONS = 50;
const WARMUP_SECONDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;

type Result = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number };

async function load(url: string, headers: Record<string, string>, seconds: number, nextId: () => bigint): Promise<Result> {
  const result = await autocannon({
    url: `${url}/plants`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        setupRequest: (request) => ({ ...request, body: `{"id":${nextId()},"name":"Bench fern","tag":"bench"}` }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function startCeiling(port: number): Promise<() => void> {
  const child = spawn(process.execPath, [NEXT_BIN, "start", CEILING, "-H", "127.0.0.1", "-p", String(port)], {
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(`http://127.0.0.1:${port}/plants`, { method: "POST" });
      return () => child.kill();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill();
  throw new Error("the ceiling app did not start");
}

function show(name: string, result: Result): string {
  return `${name.padEnd(26)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50).padStart(4)} ms   p99 ${String(result.p99).padStart(4)} ms   (${result.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors)`;
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  console.log("building the ceiling app with the project's Next.js ...");
  execFileSync(process.execPath, [NEXT_BIN, "build", CEILING], { stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });

  const app = await startApp();
  const token = await createToken(app.dataDir, ["plants:write"], "1h");
  let id = 1n;
  const nextId = () => id++;
  const auth = { authorization: `Bearer ${token}` };
  const ceilingPort = await freePort();
  const stopCeiling = await startCeiling(ceilingPort);
  const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;
  try {
    console.log(`warming up both for ${WARMUP_SECONDS} s, then ${ROUNDS} alternating rounds of ${SECONDS} s each, ${CONNECTIONS} connections ...`);
    await load(app.url, auth, WARMUP_SECONDS, nextId);
    await load(ceilingUrl, {}, WARMUP_SECONDS, nextId);
    // This machine's speed drifts from minute to minute; alternating short
    // rounds lets both sides meet the same drift, and the median ratio of the
    // rounds is the figure to quote.
    const ratios: number[] = [];
    let failures = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const ceiling = await load(ceilingUrl, {}, SECONDS, nextId);
      const before = storedPlants(app.databasePath).length;
      const plants = await load(app.url, auth, SECONDS, nextId);
      const stored = storedPlants(app.databasePath).length - before;
      ratios.push(plants.requestsPerSecond / ceiling.requestsPerSecond);
      failures += plants.non2xx + plants.errors;
      console.log(`round ${round}`);
      console.log(`  ${show("ceiling (constant handler)", ceiling)}`);
      console.log(`  ${show("POST /plants (durable)", plants)}`);
      console.log(`  rows written ${stored} for ${plants.total - plants.non2xx} answers of 200 (requests in flight when the clock stopped add a few); ratio ${ratios.at(-1)!.toFixed(2)}, p99 ${(plants.p99 / Math.max(ceiling.p99, 1)).toFixed(2)}x`);
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    console.log(`ratio POST /plants / ceiling (median of ${ROUNDS} rounds): ${median.toFixed(2)}`);
    if (failures > 0) process.exitCode = 1;
  } finally {
    stopCeiling();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// npm run bench:session: what checking a staff session against its account
// costs (issue 21), beside a build from before the check, in one run.
// Every page, server action and cookie-authenticated API call reads the
// account and compares the session's sign-in time with the account's last
// "end every session". Measured: GET / (the plant list page) and POST /plants
// with the session cookie, each app on a fresh database of each engine, 50
// connections, a warm-up, then alternating rounds; prints each round
// (throughput, p99, server CPU per request) and the median ratio of this build
// to the baseline with its range.
//   BENCH_BASELINE_ROOT  a checkout of the commit to compare with, built (required), e.g.
//                        git worktree add /tmp/baseline 0cbb9e7 && cd /tmp/baseline &&
//                        cp -al "$OLDPWD/node_modules" . && node prisma/generate.mjs && npm run build
//   BENCH_SECONDS        length of a round per target (default 5)
//   BENCH_ROUNDS         alternating rounds (default 3)
//   BENCH_DATABASES      engines, comma-separated (default sqlite,postgresql)
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { encode } from "next-auth/jwt";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { type AppServer, startApp } from "@/test/support/app-server";
import { makeTestDatabase } from "@/test/support/test-database";
import { sqlTime } from "@/test/support/webhook-endpoints";

const CONNECTIONS = 50;
const WARMUP_SECONDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",") as DatabaseProvider[];
const BASELINE = process.env.BENCH_BASELINE_ROOT;
// Both builds read sessions sealed with the same secret.
const SECRET = "a bench secret of at least thirty-two characters";

type Operation = "GET /" | "POST /plants";
type Target = { name: string; build: "this" | "baseline"; engine: DatabaseProvider; app: AppServer; cookie: string };
type Result = { requestsPerSecond: number; p99: number; cpuMsPerRequest: number; non2xx: number; errors: number };

let nextId = 1_000_000n;

function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function start(build: Target["build"], engine: DatabaseProvider): Promise<Target> {
  const root = build === "baseline" ? BASELINE : undefined;
  const env = { NEXTAUTH_SECRET: SECRET, RATE_LIMIT_API: "off", LOG_LEVEL: "warn" };
  const app = await startApp({ database: await makeTestDatabase(engine), env, root, keepOutput: false });
  const id = randomUUID();
  // Straight into the database: the password is not what is measured. Both builds have these columns.
  await app.database.query("INSERT INTO users (id, email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
    id,
    "bench@plants.example",
    "Bench Owner",
    "owner",
    "not a hash",
    sqlTime(app.database, new Date()),
  ]);
  const token = await encode({ token: { sub: id, name: "Bench Owner", email: "bench@plants.example", signedInAt: Date.now() }, secret: SECRET });
  return { name: `${build === "this" ? "this build" : "baseline"} on ${engine}`, build, engine, app, cookie: `next-auth.session-token=${token}` };
}

async function load(target: Target, operation: Operation, seconds: number): Promise<Result> {
  const headers = { cookie: target.cookie };
  const request =
    operation === "POST /plants"
      ? {
          method: "POST" as const,
          path: "/plants",
          // A staff session is accepted only from the app's own pages (CSRF): as the pages send it.
          headers: { ...headers, "content-type": "application/json", "sec-fetch-site": "same-origin" },
          setupRequest: (each: autocannon.Request) => ({ ...each, body: `{"id":${nextId++},"name":"Bench fern"}` }),
        }
      : { method: "GET" as const, path: "/", headers: { ...headers, accept: "text/html" } };
  const before = cpuMs(target.app.pid());
  const result = await autocannon({ url: target.app.url, connections: CONNECTIONS, duration: seconds, requests: [request] });
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    cpuMsPerRequest: (cpuMs(target.app.pid()) - before) / result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[]) => `${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}`;

async function main() {
  if (!BASELINE || !existsSync(path.join(BASELINE, ".next/BUILD_ID"))) throw new Error("set BENCH_BASELINE_ROOT to a built checkout of the commit to compare with (see bench/session.ts)");
  const targets: Target[] = [];
  let failures = 0;
  try {
    for (const engine of ENGINES) targets.push(await start("baseline", engine), await start("this", engine));
    for (const operation of ["GET /", "POST /plants"] as const) {
      for (const target of targets) await load(target, operation, WARMUP_SECONDS);
      const results = new Map<Target, Result[]>(targets.map((target) => [target, []]));
      for (let round = 1; round <= ROUNDS; round++) {
        for (const target of round % 2 ? targets : [...targets].reverse()) {
          const result = await load(target, operation, SECONDS);
          results.get(target)!.push(result);
          failures += result.non2xx + result.errors;
          console.log(
            `${operation.padEnd(12)} round ${round}  ${target.name.padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${String(result.p99).padStart(4)} ms  CPU ${result.cpuMsPerRequest.toFixed(3)} ms/req  (${result.non2xx} non-2xx, ${result.errors} errors)`,
          );
        }
      }
      for (const engine of ENGINES) {
        const [baseline, current] = (["baseline", "this"] as const).map((build) => results.get(targets.find((target) => target.build === build && target.engine === engine)!)!);
        const throughput = current!.map((result, round) => result.requestsPerSecond / baseline![round]!.requestsPerSecond);
        const cpu = current!.map((result, round) => result.cpuMsPerRequest / baseline![round]!.cpuMsPerRequest);
        console.log(
          `${operation} on ${engine}: this build / baseline: throughput ${median(throughput).toFixed(2)} (${range(throughput)}), CPU per request ${median(cpu).toFixed(2)} (${range(cpu)})`,
        );
      }
    }
  } finally {
    await Promise.all(targets.map(async (target) => {
      await target.app.stop();
      await target.app.database.drop();
    }));
  }
  if (failures > 0) {
    console.error(`${failures} requests failed`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// npm run bench: the app against the framework's own ceiling, in one run, on
// this machine. Authenticated POST /plants (unique ids), GET /plants?limit=20
// (500 plants stored) and, when asked, PATCH /plants/{id} (a new name for
// each of the 500 in turn), on SQLite and on PostgreSQL, each
// against a Next.js route handler built with the project's Next that answers a
// constant. 50 connections, a warm-up, then alternating rounds. Prints each
// round (throughput, p50, p99, and the server's CPU time per request) and the
// median ratios to the ceiling; exits 1 if any request failed.
// The apps run as in production: request log at info (written to a pipe the
// bench drains) and the metrics listener on. After each round it prints each
// app's resident memory.
//   BENCH_SECONDS        length of a round per target (default 5)
//   BENCH_DATABASES      engines to measure, comma-separated (default sqlite,postgresql)
//   BENCH_OPERATIONS     operations to measure, comma-separated: POST, GET, PATCH (default POST,GET)
//   BENCH_ROUNDS         alternating rounds (default 3)
//   BENCH_WEBHOOKS       "compare" adds, per engine, an app with a webhook endpoint
//                        for plant.created (a receiver in this process that
//                        verifies each delivery and answers 204), to price them
//   BENCH_OBSERVABILITY  "compare" adds, per engine, an app with neither request
//                        log (LOG_LEVEL=warn) nor metrics listener, to price them
//   BENCH_SCALING        1: instead of the above, what more server processes buy
//                        (bench/scaling.ts): per engine, WEB_CONCURRENCY=1 against auto
//                        (one worker per core), in alternating rounds, with the
//                        ratios auto/1 and the memory of every process, and beside
//                        each app Next.js's ceiling with as many processes (node:cluster
//                        workers, bench/ceiling-cluster.mjs) and the app/ceiling
//                        throughput at 1 and at auto; "profile"
//                        also watches each round from outside the app (the SQLite
//                        write lock's holder, each worker's wall time, commits,
//                        PostgreSQL connections busy); BENCH_WEBHOOKS=compare then
//                        gives each app a webhook endpoint, and BENCH_RATE_LIMIT_API
//                        (say 100000000/1m) keeps the API's rate limit on, counted
//                        as in production (on PostgreSQL, in its own pool); "writers":
//                        BENCH_WRITERS processes (16) storing plants through the app's
//                        create path, no HTTP, on one SQLite file, against one (bench/writers.ts)
//   BENCH_SCALING_WORKERS the two WEB_CONCURRENCY settings BENCH_SCALING compares (default
//                        1,auto); with POST and GET both measured, it prints POST's growth
//                        from the first to the second over GET's (say 2,16: issue 33)
//   BENCH_BASELINE_ROOT  a built checkout of another commit: adds, per engine, that
//                        build's app, and prints this build's throughput and CPU per
//                        request against it, round by round (a change's cost). Make one
//                        with git worktree add /tmp/baseline <commit>, then in it
//                        cp -al "$OLDPWD/node_modules" . && node prisma/generate.mjs && npm run build
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { buildCeiling, startCeiling } from "@/bench/ceiling-app";
import { runScaling } from "@/bench/scaling";
import { benchWriters } from "@/bench/writers";
import { CONNECTIONS, type LoadTarget, load, median, type Operation, STORED_FOR_GET, show } from "@/bench/load";
import { type AppServer, freePort } from "@/test/support/app-server";
import { storedPlants } from "@/test/support/test-database";
import { addWebhookEndpoint } from "@/test/support/webhook-endpoints";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

const ROOT = path.resolve(import.meta.dirname, "..");
const WARMUP_SECONDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",") as DatabaseProvider[];
const OPERATIONS = (process.env.BENCH_OPERATIONS ?? "POST,GET").toUpperCase().split(",") as Operation[];
const COMPARE_OBSERVABILITY = process.env.BENCH_OBSERVABILITY === "compare";
const COMPARE_WEBHOOKS = process.env.BENCH_WEBHOOKS === "compare";
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
const SCALING = process.env.BENCH_SCALING;

type Target = LoadTarget & { name: string; app?: AppServer; receiver?: WebhookReceiver };

/** An app on a fresh database of `engine`, with a plants:write token and STORED_FOR_GET plants. */
async function startEngine(engine: DatabaseProvider, { observed, webhooks = false, baseline = false }: { observed: boolean; webhooks?: boolean; baseline?: boolean }): Promise<Target> {
  const env = observed ? { METRICS_PORT: String(await freePort()) } : { LOG_LEVEL: "warn", METRICS_PORT: "off" };
  const root = baseline ? BASELINE_ROOT : undefined;
  const { app, headers } = await startBenchApp(engine, { stored: STORED_FOR_GET, root, env: { ...env, ...(webhooks && { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }) } });
  const name = `${baseline ? "baseline" : "app"} on ${engine}${observed ? "" : ", unobserved"}${webhooks ? ", webhooks" : ""}`;
  if (!webhooks) return { name, url: app.url, headers, app, pid: () => app.pid() };
  const receiver = await startWebhookReceiver();
  receiver.script(() => ({ status: 204 }));
  receiver.secrets = [(await addWebhookEndpoint(app.database, { url: receiver.url, events: ["plant.created"] })).secret];
  return { name, url: app.url, headers, app, pid: () => app.pid(), receiver };
}

/**
 * Waits until an app with a webhook endpoint has sent every pending delivery,
 * so that its backlog does not load the machine during the next target's
 * round; answers how long that took (undefined for an app without one).
 */
async function drainWebhooks(target: Target): Promise<number | undefined> {
  if (!target.receiver || !target.app) return undefined;
  const started = Date.now();
  for (;;) {
    const [row] = await target.app.database.query<{ pending: unknown }>("SELECT count(*) AS pending FROM webhook_deliveries WHERE status = 'pending'");
    if (Number(row?.pending) === 0) return Date.now() - started;
    if (Date.now() - started > 300_000) throw new Error(`${target.name}: webhook deliveries still pending after 5 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A process's resident memory now and at its peak, in MB (Linux). */
function residentMemory(pid: number | undefined): string {
  if (pid === undefined) return "?";
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const megabytes = (field: string) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024);
  return `${megabytes("VmRSS")} MB (peak ${megabytes("VmHWM")} MB)`;
}

/** BENCH_SCALING_WORKERS: the two WEB_CONCURRENCY settings BENCH_SCALING compares, "1,auto" unless given. */
function scalingSettings(): [string, string] {
  const settings = (process.env.BENCH_SCALING_WORKERS ?? "1,auto").split(",").map((each) => each.trim());
  if (settings.length !== 2 || !settings.every((each) => each === "auto" || /^[1-9]\d*$/.test(each))) {
    throw new Error(`BENCH_SCALING_WORKERS must be two WEB_CONCURRENCY settings, the fewer first (say 2,16), not ${process.env.BENCH_SCALING_WORKERS}`);
  }
  return settings as [string, string];
}

async function main() {
  // The write path alone: no server, so no build.
  if (SCALING === "writers") return benchWriters();
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  if (SCALING) {
    if (!["1", "profile"].includes(SCALING)) throw new Error(`BENCH_SCALING must be 1, profile or writers, not ${SCALING}`);
    const failures = await runScaling({
      engines: ENGINES,
      operations: OPERATIONS,
      rounds: ROUNDS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      profile: SCALING === "profile",
      settings: scalingSettings(),
      webhooks: COMPARE_WEBHOOKS,
      rateLimit: process.env.BENCH_RATE_LIMIT_API,
    });
    if (failures > 0) {
      console.error(`${failures} requests failed`);
      process.exitCode = 1;
    }
    return;
  }
  buildCeiling();
  const ceilingApp = await startCeiling();
  const ceiling: Target = { name: "ceiling (constant)", url: ceilingApp.url, headers: {}, pid: () => ceilingApp.pid };
  const apps: Target[] = [];
  let failures = 0;
  try {
    for (const engine of ENGINES) {
      apps.push(await startEngine(engine, { observed: true }));
      if (COMPARE_OBSERVABILITY) apps.push(await startEngine(engine, { observed: false }));
      if (COMPARE_WEBHOOKS) apps.push(await startEngine(engine, { observed: true, webhooks: true }));
      if (BASELINE_ROOT) apps.push(await startEngine(engine, { observed: true, baseline: true }));
    }
    const targets = [ceiling, ...apps];
    console.log(`warming up for ${WARMUP_SECONDS} s each, then ${ROUNDS} alternating rounds of ${SECONDS} s per target, ${CONNECTIONS} connections ...`);
    for (const operation of OPERATIONS) {
      for (const target of targets) {
        await load(target, operation, WARMUP_SECONDS);
        await drainWebhooks(target);
      }
    }

    // This machine's speed drifts from minute to minute; alternating short
    // rounds lets every target meet the same drift, and the median ratio of
    // the rounds is the figure to quote.
    // Per app and operation, each round's throughput, CPU cost and p99 against the ceiling's.
    const ratios = new Map<string, { throughput: number; cpu: number; p99: number }[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round}`);
      for (const operation of OPERATIONS) {
        const limit = await load(ceiling, operation, SECONDS);
        console.log(`  ${operation.padEnd(4)} ${show(ceiling.name, limit)}`);
        for (const app of apps) {
          const before = operation === "POST" ? (await storedPlants(app.app!.database)).length : 0;
          const result = await load(app, operation, SECONDS);
          failures += result.non2xx + result.errors;
          const key = `${operation} ${app.name}`;
          const ratio = {
            throughput: result.requestsPerSecond / limit.requestsPerSecond,
            cpu: limit.cpuMsPerRequest / result.cpuMsPerRequest,
            p99: result.p99 / Math.max(limit.p99, 1),
          };
          ratios.set(key, [...(ratios.get(key) ?? []), ratio]);
          const written = operation === "POST" ? `, ${(await storedPlants(app.app!.database)).length - before} rows written` : "";
          const drainedMs = await drainWebhooks(app);
          const drained = drainedMs === undefined ? "" : `, webhook backlog sent ${(drainedMs / 1000).toFixed(1)} s after the round`;
          console.log(`  ${operation.padEnd(4)} ${show(app.name, result)}   ratio ${ratio.throughput.toFixed(2)} (CPU ${ratio.cpu.toFixed(2)}), p99 ${ratio.p99.toFixed(2)}x${written}${drained}`);
        }
      }
      for (const app of apps) console.log(`  memory of ${app.name}: ${residentMemory(app.app!.pid())}`);
    }
    // Throughput is the goal's measure; CPU per request is the steadier one on a
    // busy two-core machine, where the load generator shares the cores.
    // The rounds' range beside each median: how far one run can be trusted on this machine.
    console.log(`\nmedian over ${ROUNDS} rounds (lowest to highest round), against the ceiling: throughput ratio, CPU-per-request ratio, p99 multiple`);
    for (const [key, values] of ratios) {
      const of = (pick: (ratio: { throughput: number; cpu: number; p99: number }) => number) => {
        const picked = values.map(pick);
        return `${median(picked).toFixed(2)} (${Math.min(...picked).toFixed(2)} to ${Math.max(...picked).toFixed(2)})`;
      };
      console.log(`  ${key.padEnd(36)} ${of((each) => each.throughput)}   CPU ${of((each) => each.cpu)}   p99 ${of((each) => each.p99)}x`);
    }
    if (BASELINE_ROOT) {
      console.log(`\nthis build against the baseline (${BASELINE_ROOT}), round by round: median (lowest to highest round)`);
      for (const operation of OPERATIONS) {
        for (const engine of ENGINES) {
          const [current, baseline] = [`${operation} app on ${engine}`, `${operation} baseline on ${engine}`].map((key) => ratios.get(key)!);
          const per = (pick: (ratio: { throughput: number; cpu: number }) => number) => current!.map((ratio, round) => pick(ratio) / pick(baseline![round]!));
          const show = (values: number[]) => `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)})`;
          console.log(`  ${`${operation} on ${engine}`.padEnd(20)} throughput ${show(per((ratio) => ratio.throughput))}   CPU per request ${show(per((ratio) => 1 / ratio.cpu))}`);
        }
      }
    }
    for (const app of apps.filter((each) => each.receiver)) {
      const unverified = app.receiver!.unverified().length;
      console.log(`  ${app.name}: ${app.receiver!.acknowledged().size} events delivered so far, ${unverified} failed to verify`);
      failures += unverified;
    }
    if (failures > 0) {
      console.error(`${failures} requests failed`);
      process.exitCode = 1;
    }
  } finally {
    await ceilingApp.stop();
    await Promise.all(apps.map((app) => stopBenchApp(app.app!)));
    await Promise.all(apps.map((app) => app.receiver?.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { buildCeiling, type CeilingApp, startCeiling } from "@/bench/ceiling-app";
import { type LoadTarget, load, type Operation, type Result, STORED_FOR_GET, show, spread } from "@/bench/load";
import { processCpuMs, processRole, processTree, proportionalBytes, residentBytes } from "@/bench/process-tree";
import {
  type ConnectionSamples,
  countSyncs,
  openConnections,
  percent,
  sampleConnections,
  sampleWallTime,
  scrapeMetrics,
  tallyLog,
  type WallSamples,
  wallShares,
} from "@/bench/scaling-probes";
import { type AppServer, freePort } from "@/test/support/app-server";
import { addWebhookEndpoint } from "@/test/support/webhook-endpoints";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

// BENCH_SCALING=1 npm run bench (issue 25): what more server processes buy.
// Per engine, the app with one server process (WEB_CONCURRENCY=1) and with
// WEB_CONCURRENCY=auto (one per core), side by side, in alternating rounds
// (1, auto, 1, auto ...); each round's throughput, p99 and CPU per request of
// the whole process tree (primary and workers), the ratios auto/1 round by
// round and their median and range; resident memory per process and in
// total, at rest (after the warm-up) and at its peak under load. Beside each app,
// in the same rounds just before it, Next.js's own ceiling (bench/ceiling) with as
// many processes (node:cluster workers for auto, bench/ceiling-cluster.mjs), and
// the app's throughput over the ceiling's at 1 and at auto: issue 25's goal is at
// least 0.7 of it at every worker count.
// BENCH_SCALING=profile watches each round from outside the app as well
// (bench/scaling-probes.ts): where each worker's event loop spends its wall
// time, the share of it SQLite's write lock is held and by whom, commits and
// plants per commit per worker, PostgreSQL connections busy per worker and
// what they wait on, webhook attempts per worker.
// The load generator runs on the same machine: on two cores, the workers and
// autocannon share them, and auto/1 is what this machine can show, not what a
// machine with cores to spare would.

// The app's pool per process (lib/db/postgres.ts): DATABASE_POOL_SIZE, which the apps take from this
// process's environment (test/support/app-env.ts), or its default.
const POOL_MAX = Number(process.env.DATABASE_POOL_SIZE ?? 10);
const MEMORY_SAMPLE_MS = 200;

/** A WEB_CONCURRENCY: "1", "auto" or a number of workers. */
type Setting = string;
type ScalingApp = { setting: Setting; engine: DatabaseProvider; app: AppServer; headers: Record<string, string>; metricsPort: string; receiver?: WebhookReceiver };
type Ceiling = { workers: number; name: string; app: CeilingApp };
/** Resident bytes by process role, and the sum of all at one instant. */
type Memory = { byRole: Map<string, number>; total: number };

export type ScalingOptions = {
  engines: DatabaseProvider[];
  operations: Operation[];
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  profile: boolean;
  /** The two WEB_CONCURRENCY settings compared, the fewer first: "1" and "auto" by default. */
  settings: [Setting, Setting];
  webhooks: boolean;
  /** RATE_LIMIT_API for the apps; unset, the API's rate limit is off (bench/bench-app.ts). */
  rateLimit: string | undefined;
};

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

function memoryNow(root: number): Memory {
  const byRole = new Map<string, number>();
  let total = 0;
  const tree = processTree(root);
  for (const pid of tree) {
    const bytes = residentBytes(pid);
    if (bytes === undefined) continue;
    byRole.set(processRole(pid, root, tree), bytes);
    total += bytes;
  }
  return { byRole, total };
}

/** Samples the tree's memory until stop(): each process's peak, and the peak of their sum. */
function sampleMemory(root: number): { stop: () => Memory } {
  const peak: Memory = { byRole: new Map(), total: 0 };
  const sample = () => {
    const now = memoryNow(root);
    for (const [role, bytes] of now.byRole) peak.byRole.set(role, Math.max(peak.byRole.get(role) ?? 0, bytes));
    peak.total = Math.max(peak.total, now.total);
  };
  sample();
  const timer = setInterval(sample, MEMORY_SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

const showMemory = (memory: Memory) =>
  `${megabytes(memory.total)} in total (${[...memory.byRole]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([role, bytes]) => `${role} ${megabytes(bytes)}`)
    .join(", ")})`;

function workerPids(app: AppServer): number[] {
  const root = app.pid()!;
  const tree = processTree(root);
  return tree.length > 1 ? tree.slice(1) : tree;
}

async function startScalingApp(engine: DatabaseProvider, setting: Setting, options: ScalingOptions): Promise<ScalingApp> {
  const metricsPort = String(await freePort());
  // As in production: request log at info, metrics listener on.
  const env = {
    METRICS_PORT: metricsPort,
    WEB_CONCURRENCY: setting,
    ...(options.rateLimit && { RATE_LIMIT_API: options.rateLimit }),
    ...(options.webhooks && { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }),
  };
  const { app, headers } = await startBenchApp(engine, { stored: STORED_FOR_GET, env, keepOutput: options.profile });
  const scaling: ScalingApp = { setting, engine, app, headers, metricsPort };
  if (!options.webhooks) return scaling;
  const receiver = await startWebhookReceiver();
  receiver.script(() => ({ status: 204 }));
  receiver.secrets = [(await addWebhookEndpoint(app.database, { url: receiver.url, events: ["plant.created"] })).secret];
  return { ...scaling, receiver };
}

const loadTarget = (app: ScalingApp): LoadTarget => ({ url: app.app.url, headers: app.headers, pid: () => app.app.pid() });

const ceilingTarget = (ceiling: Ceiling): LoadTarget => ({ url: ceiling.app.url, headers: {}, pid: () => ceiling.app.pid });

/** The ceiling with as many processes as `app`: one, or that many workers. */
async function startScalingCeiling(app: ScalingApp): Promise<Ceiling> {
  const workers = app.setting === "1" ? 1 : workerPids(app.app).length;
  return { workers, name: `ceiling, ${workers === 1 ? "1 process" : `${workers} workers`}`, app: await startCeiling({ workers }) };
}

const label = (app: ScalingApp) => `${app.engine}, ${describeSetting(app.setting, workerPids(app.app).length)}`;

const describeSetting = (setting: Setting, workers: number) => (setting === "1" ? "1 process" : setting === "auto" ? `auto (${workers} workers)` : `${workers} workers`);

/** Waits for an app's webhook backlog to be sent, so that it does not load the next round; answers how long that took. */
async function drainWebhooks(app: ScalingApp): Promise<number | undefined> {
  if (!app.receiver) return undefined;
  const started = Date.now();
  for (;;) {
    const [row] = await app.app.database.query<{ pending: unknown }>("SELECT count(*) AS pending FROM webhook_deliveries WHERE status = 'pending'");
    if (Number(row?.pending) === 0) return Date.now() - started;
    if (Date.now() - started > 300_000) throw new Error(`${label(app)}: webhook deliveries still pending after 5 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Profile = { wall: WallSamples; syncs: Awaited<ReturnType<ReturnType<typeof countSyncs>["stop"]>>; connections?: ConnectionSamples; logFrom: number };

async function startProfile(app: ScalingApp) {
  const pids = workerPids(app.app);
  const config = app.app.database.config;
  const wall = sampleWallTime(pids, config.provider === "sqlite" ? config.path : undefined);
  const syncs = countSyncs(pids);
  const connections = config.provider === "postgresql" ? await sampleConnections(pids, config, POOL_MAX) : undefined;
  const logFrom = app.app.output().length;
  return {
    stop: async (): Promise<Profile> => ({ wall: await wall.stop(), syncs: await syncs.stop(), connections: await connections?.stop(), logFrom }),
  };
}

/** SQLite: how long a create's transaction held the write lock, and its COMMIT (the WAL's write and fsync) within it, from the app's own histograms. */
function lockHeld(delta: (name: string) => number): string {
  const commits = delta("plant_store_sqlite_write_lock_held_seconds_count");
  if (commits === 0) return "";
  const held = delta("plant_store_sqlite_write_lock_held_seconds_sum") / commits;
  const commit = delta("plant_store_sqlite_commit_seconds_sum") / commits;
  return `, the lock held ${(held * 1000).toFixed(2)} ms a commit, its COMMIT ${(commit * 1000).toFixed(2)} ms (${(held / commit).toFixed(2)}x)`;
}

/** What the profile saw in a round of `seconds`, per worker and in all. */
function showProfile(app: ScalingApp, profile: Profile, seconds: number, metrics: { batches: number; plants: number }): string[] {
  const root = app.app.pid()!;
  const pids = workerPids(app.app);
  const lines: string[] = [];
  const log = tallyLog(app.app.output().slice(profile.logFrom));
  const { wall } = profile;
  const held = wall.samples - (wall.holders.none ?? 0);
  if (app.engine === "sqlite") {
    lines.push(`SQLite write lock held ${percent(held / wall.samples)} of the round's wall time (${wall.samples} samples)`);
  }
  if (metrics.batches > 0) {
    lines.push(`group commit, all workers: ${(metrics.batches / seconds).toFixed(0)} batches/s, ${(metrics.plants / metrics.batches).toFixed(2)} plants per batch (plant_store_group_commit_batch_size)`);
  }
  for (const pid of pids) {
    const role = processRole(pid, root);
    const parts = [`${role} (pid ${pid})`];
    const lockShare = (wall.holders[String(pid)] ?? 0) / wall.samples;
    if (app.engine === "sqlite") parts.push(`holds the write lock ${percent(lockShare)}`);
    const requests = log.requests.get(role) ?? 0;
    parts.push(`${(requests / seconds).toFixed(0)} 2xx/s`);
    // The main thread's syncs: its commits (a checkpoint's syncs are another thread's).
    const commits = profile.syncs?.get(pid);
    if (commits !== undefined && commits > 0) {
      const perCommit = app.engine === "sqlite" ? `, the lock held ${((lockShare * seconds * 1000) / commits).toFixed(1)} ms per fsync` : "";
      parts.push(`${(commits / seconds).toFixed(1)} fsyncs/s on its main thread (${(requests / commits).toFixed(2)} requests per fsync${perCommit})`);
    } else if (commits !== undefined) parts.push("no fsync on its main thread");
    const attempts = log.webhookAttempts.get(role);
    if (attempts !== undefined) parts.push(`${(attempts / seconds).toFixed(0)} webhook attempts/s`);
    const connections = profile.connections?.byPid.get(pid);
    if (connections && profile.connections) {
      const samples = profile.connections.samples;
      parts.push(
        `PostgreSQL connections: ${connections.open} open at most (${connections.rateLimitOpen} of them the rate limits'); of the app's pool, busy ${(connections.busySum / samples).toFixed(1)} on average and ${connections.busyMost} at most, all ${POOL_MAX} busy in ${percent(connections.fullSamples / samples)} of samples`,
      );
    }
    lines.push(parts.join(", "));
    lines.push(`  its main thread: ${wallShares(wall.states[String(pid)] ?? {})}`);
  }
  if (profile.connections) {
    const busy = [...profile.connections.waits.values()].reduce((sum, count) => sum + count, 0);
    const waits = [...profile.connections.waits]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([wait, count]) => `${wait} ${percent(count / busy)}`)
      .join(", ");
    lines.push(`busy PostgreSQL connections were: ${waits || "none seen"}; max_connections ${profile.connections.maxConnections}, ${profile.connections.reserved} reserved for superusers`);
  }
  return lines;
}

type Round = { result: Result; peak: Memory };

/** Round by round, `value` of `over` divided by that of `under`. */
const ratio = (over: Result[], under: Result[], value: (result: Result) => number) => over.map((each, index) => value(each) / value(under[index]!));

/** Runs the scaling comparison; answers the number of requests that failed. */
export async function runScaling(options: ScalingOptions): Promise<number> {
  const { engines, operations, rounds, seconds, warmupSeconds } = options;
  let failures = 0;
  const summary: string[] = [];
  buildCeiling();
  const settings = options.settings;
  for (const engine of engines) {
    const apps: ScalingApp[] = [];
    // Each operation's throughput at the second setting over the first, round by round.
    const growth = new Map<Operation, number[]>();
    // By the app's setting.
    const ceilings = new Map<Setting, Ceiling>();
    try {
      for (const setting of settings) apps.push(await startScalingApp(engine, setting, options));
      for (const app of apps) ceilings.set(app.setting, await startScalingCeiling(app));
      console.log(
        `${engine}: ${apps.map((app) => `${label(app)} (against ${ceilings.get(app.setting)!.name})`).join(" and ")}; warming up for ${warmupSeconds} s each, then ${rounds} alternating rounds of ${seconds} s ...`,
      );
      for (const operation of operations) {
        for (const app of apps) {
          await load(ceilingTarget(ceilings.get(app.setting)!), operation, warmupSeconds);
          await load(loadTarget(app), operation, warmupSeconds);
          await drainWebhooks(app);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const atRest = new Map(apps.map((app) => [app.setting, memoryNow(app.app.pid()!)]));
      for (const app of apps) {
        const proportional = processTree(app.app.pid()!).reduce((sum, pid) => sum + (proportionalBytes(pid) ?? 0), 0);
        console.log(`  memory at rest, ${label(app)}: ${showMemory(atRest.get(app.setting)!)}; proportional (Pss), in total ${megabytes(proportional)}`);
      }
      if (options.profile && engine === "postgresql") {
        for (const app of apps) {
          const open = openConnections([app.app.pid()!, ...workerPids(app.app)]);
          console.log(`  PostgreSQL connections at rest, ${label(app)}: ${[...open].map(([pid, count]) => `${processRole(pid, app.app.pid()!)} ${count}`).join(", ")}`);
        }
      }

      const measured = new Map<string, Round[]>();
      const ceilingMeasured = new Map<string, Result[]>();
      for (let round = 1; round <= rounds; round++) {
        console.log(`${engine}, round ${round}`);
        for (const operation of operations) {
          for (const app of apps) {
            const ceiling = ceilings.get(app.setting)!;
            const limit = await load(ceilingTarget(ceiling), operation, seconds);
            failures += limit.non2xx + limit.errors;
            const ceilingKey = `${operation} ${app.setting}`;
            ceilingMeasured.set(ceilingKey, [...(ceilingMeasured.get(ceilingKey) ?? []), limit]);
            console.log(`  ${operation.padEnd(4)} ${show(ceiling.name, limit)}`);
            const before = await scrapeMetrics(app.metricsPort);
            const profile = options.profile ? await startProfile(app) : undefined;
            const memory = sampleMemory(app.app.pid()!);
            const root = app.app.pid()!;
            const primaryCpuBefore = processCpuMs(root);
            const result = await load(loadTarget(app), operation, seconds);
            const peak = memory.stop();
            // With workers, what the primary cost (handing out connections, the rate limits' counters on SQLite).
            const primaryCpu = processTree(root).length > 1 ? `, CPU of the primary ${((processCpuMs(root)! - primaryCpuBefore!) / result.total).toFixed(3)} ms/req` : "";
            const profiled = await profile?.stop();
            const after = await scrapeMetrics(app.metricsPort);
            failures += result.non2xx + result.errors;
            const key = `${operation} ${app.setting}`;
            measured.set(key, [...(measured.get(key) ?? []), { result, peak }]);
            const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
            const batches = delta("plant_store_group_commit_batch_size_count");
            const plants = delta("plant_store_group_commit_batch_size_sum");
            const grouped = operation === "POST" && batches > 0 ? `, ${(batches / seconds).toFixed(0)} commits/s of ${(plants / batches).toFixed(1)} plants${lockHeld(delta)}` : "";
            console.log(`  ${operation.padEnd(4)} ${show(label(app), result)}${primaryCpu}${grouped}, peak memory ${megabytes(peak.total)}`);
            if (profiled) for (const line of showProfile(app, profiled, seconds, { batches, plants })) console.log(`         ${line}`);
            const drainedMs = await drainWebhooks(app);
            if (drainedMs !== undefined) {
              const attempts = delta('plant_store_webhook_deliveries_total{outcome="delivered"}');
              console.log(`         webhooks: ${(attempts / seconds).toFixed(0)} delivered/s during the round, the backlog sent ${(drainedMs / 1000).toFixed(1)} s after it`);
            }
          }
        }
      }

      summary.push(`\n${engine}: ${apps.map(label).join(" against ")}, median over ${rounds} rounds (lowest to highest round)`);
      for (const operation of operations) {
        const [one, auto] = settings.map((setting) => measured.get(`${operation} ${setting}`)!.map((each) => each.result));
        const [ceilingOne, ceilingAuto] = settings.map((setting) => ceilingMeasured.get(`${operation} ${setting}`)!);
        growth.set(operation, ratio(auto!, one!, (result) => result.requestsPerSecond));
        for (const [name, results] of [
          [settings[0]!, one],
          [settings[1]!, auto],
          [`ceiling ${ceilings.get(settings[0]!)!.workers}`, ceilingOne],
          [`ceiling ${ceilings.get(settings[1]!)!.workers}`, ceilingAuto],
        ] as const) {
          const pick = (value: (result: Result) => number) => results!.map(value);
          summary.push(
            `  ${operation.padEnd(4)} ${name.padEnd(10)} ${spread(
              pick((result) => result.requestsPerSecond),
              0,
            )} req/s   p99 ${spread(pick((result) => result.p99), 0)} ms   CPU ${spread(pick((result) => result.cpuMsPerRequest), 3)} ms/req`,
          );
        }
        const requestsPerSecond = (result: Result) => result.requestsPerSecond;
        summary.push(
          `  ${operation.padEnd(4)} ${`${settings[1]}/${settings[0]}`.padEnd(10)} throughput ${spread(ratio(auto!, one!, requestsPerSecond))}   p99 ${spread(ratio(auto!, one!, (result) => Math.max(result.p99, 1)))}   CPU per request ${spread(ratio(auto!, one!, (result) => result.cpuMsPerRequest))}`,
        );
        summary.push(
          `  ${operation.padEnd(4)} app/ceiling throughput at ${settings[0]} ${spread(ratio(one!, ceilingOne!, requestsPerSecond))}   at ${settings[1]} ${spread(ratio(auto!, ceilingAuto!, requestsPerSecond))}   (the ceiling's own ${settings[1]}/${settings[0]} ${spread(ratio(ceilingAuto!, ceilingOne!, requestsPerSecond))})`,
        );
      }
      const [postGrowth, getGrowth] = [growth.get("POST"), growth.get("GET")];
      if (postGrowth && getGrowth) {
        // Issue 33: more processes than cores cost reads their caches and switching; writes should lose no more than that.
        summary.push(
          `  POST's ${settings[1]}/${settings[0]} over GET's, round by round: ${spread(postGrowth.map((post, index) => post / getGrowth[index]!))} (POST ${spread(postGrowth)}, GET ${spread(getGrowth)})`,
        );
      }
      for (const app of apps) {
        const peaks = operations.flatMap((operation) => measured.get(`${operation} ${app.setting}`)!.map((each) => each.peak));
        const peak: Memory = { byRole: new Map(), total: Math.max(...peaks.map((each) => each.total)) };
        for (const each of peaks) for (const [role, bytes] of each.byRole) peak.byRole.set(role, Math.max(peak.byRole.get(role) ?? 0, bytes));
        summary.push(`  memory of ${label(app)}: at rest ${showMemory(atRest.get(app.setting)!)}; under load, at peak ${showMemory(peak)}`);
      }
    } finally {
      await Promise.all([...ceilings.values()].map((ceiling) => ceiling.app.stop()));
      await Promise.all(apps.map((app) => stopBenchApp(app.app)));
      await Promise.all(apps.map((app) => app.receiver?.close()));
    }
  }
  for (const line of summary) console.log(line);
  return failures;
}

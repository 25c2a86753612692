import cluster, { type Worker } from "node:cluster";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import { shareScheduledBackupsWithWorkers } from "@/lib/backup/backup-schedule-link";
import { configuredBackupSchedule, stopScheduledBackups } from "@/lib/backup/scheduled-backups";
import { relayChangeWakes } from "@/lib/live/cluster-wake";
import { logSingleSignOnAtStart } from "@/lib/auth/single-sign-on/sso-status";
import { storePlantsForWorkers } from "@/lib/plants/plant-writer";
import { SETTLED_MS, WORKER_PLACE_VARIABLE } from "@/lib/server/cluster-role";
import { env } from "@/lib/server/env";
import { flushLog, log } from "@/lib/server/log";
import { clusterMetrics } from "@/lib/server/metrics";
import { serveMetrics } from "@/lib/server/metrics-listener";
import { onParentExit } from "@/lib/server/parent-exit";
import { startServer } from "@/lib/server/startup";
import { isStopSignal, onStopSignal, type StopSignal } from "@/lib/server/stop-signals";

// npm start with more than one worker (WEB_CONCURRENCY, issue 25): this
// process answers no request itself. It does what must happen once: checks
// the configuration and migrates the database before any worker serves; then
// forks the workers (Node's cluster module), each the whole server
// (lib/server/http-server.ts). The primary holds PORT's socket and hands each
// new connection to the workers in turn (round-robin, cluster's default on
// Linux). It keeps what the workers share on one machine: the rate limits'
// counters on SQLite (rate-limiter-flexible's cluster master), and /metrics,
// added up from every worker's (prom-client's AggregatorRegistry). It runs the
// scheduled backups of SQLite, once for the machine, from when every worker
// serves; the workers' Backups page and "Back up now" reach them over the
// cluster's channel (lib/backup/backup-schedule-link.ts). A worker
// that dies is replaced in its place and logged; a stop signal (SIGTERM,
// SIGINT, SIGHUP: lib/server/stop-signals.ts) is passed to every worker, each
// drains as the one server process does (lib/server/shutdown.ts), or stops
// before it serves if it was still starting, and the primary exits 0 once all have exited 0;
// the backups take no more at once, and one under way is not waited for (as
// lib/server/shutdown.ts says why).
// On SQLite it stores the workers' new plants, all of theirs in each commit (lib/plants/plant-writer.ts).
// It never loads Next.js, React or Prisma's client: about 60 MB resident (measured, docs/operations.md).

// A worker that dies within SETTLED_MS (lib/server/cluster-role.ts) may die again at once, and its
// replacement waits, longer each time.
const LONGEST_REPLACEMENT_DELAY_MS = 10_000;
// Beyond the workers' own deadline (SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS): a worker that has not
// exited by then is stuck, and is killed.
const STOP_GRACE_MS = 5_000;

type Place = { worker: Worker; forkedAt: number; quickDeaths: number };
type StopCause = StopSignal | "parent exited" | "start-up failed" | "a worker stopped";

export async function runPrimary(count: number): Promise<void> {
  const config = env();
  // Once, before any worker serves: a fresh database is migrated here, and a bad configuration stops here.
  await startServer();
  if (config.database.provider === "sqlite") new RateLimiterClusterMaster();
  // SQLite: a worker's word that it committed plant changes reaches the others' streams at once.
  if (config.database.provider === "sqlite") relayChangeWakes();
  // SQLite: the workers' new plants are stored here, together (lib/plants/plant-writer.ts).
  const plantWriter = config.database.provider === "sqlite" ? storePlantsForWorkers(config.database.path) : undefined;
  // Before any worker: a primary that cannot open its metrics listener stops before a request is taken.
  const metricsServer = config.metrics ? await serveMetrics(config.metrics, clusterMetrics()) : undefined;
  const backupSchedule = configuredBackupSchedule();
  // Before any worker: each asks for the schedule's state as it starts.
  const backups = backupSchedule ? shareScheduledBackupsWithWorkers(backupSchedule) : undefined;

  const places = new Map<number, Place>();
  // The places whose worker has listened once: the server has started when every place has.
  const listened = new Set<number>();
  const started = () => listened.size === count;
  let stopping = false;
  let failed = false;

  function fork(place: number, quickDeaths: number): void {
    const worker = cluster.fork({ [WORKER_PLACE_VARIABLE]: String(place), ...plantWriter?.workerEnv });
    places.set(place, { worker, forkedAt: Date.now(), quickDeaths });
    worker.once("listening", () => {
      // A replacement's listening starts nothing: the server started when the first worker of each place listened.
      // Nor does a worker's that listened while the server stopped (a signal came while it started).
      if (started() || stopping) return;
      listened.add(place);
      if (!started()) return;
      // Once serving, as the one server process starts them: a server that fails to start takes none.
      backups?.start();
      logSingleSignOnAtStart();
      log.info("listening", {
        address: `http://${config.host}:${config.port}`,
        workers: count,
        metrics: config.metrics ? `http://${config.metrics.host}:${config.metrics.port}/metrics` : "off",
      });
    });
    worker.once("exit", (code, signal) => gone(place, worker, code, signal));
  }

  function gone(place: number, worker: Worker, code: number | null, signal: string | null): void {
    const was = places.get(place);
    if (was?.worker !== worker) return;
    places.delete(place);
    if (stopping) {
      // Killed by the signal passed on: it came before the worker's first line caught it, and nothing had started.
      if (code !== 0 && !isStopSignal(signal)) failed = true;
      if (places.size === 0) void finish();
      return;
    }
    if (!started() && (code === 0 || isStopSignal(signal))) {
      // Stopped by a signal while the server started: one to the whole process group (Ctrl-C, systemd) reaches
      // every process, and this worker's exit may come before the primary's own signal.
      log.info("a worker stopped while the server started; stopping", { worker: place, code, signal });
      void stop("a worker stopped");
      return;
    }
    if (!started()) {
      // What stopped one worker before it served (a port in use, a database it cannot open) stops them all.
      log.error("a worker exited before it served; stopping", { worker: place, code, signal });
      failed = true;
      void stop("start-up failed");
      return;
    }
    const quickDeaths = Date.now() - was.forkedAt < SETTLED_MS ? was.quickDeaths + 1 : 0;
    const delayMs = quickDeaths === 0 ? 0 : Math.min(LONGEST_REPLACEMENT_DELAY_MS, 500 * 2 ** (quickDeaths - 1));
    log.error("a worker died; starting another in its place", { worker: place, pid: worker.process.pid, code, signal, delayMs });
    setTimeout(() => stopping || fork(place, quickDeaths), delayMs);
  }

  async function stop(signal: StopCause): Promise<void> {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal, workers: places.size });
    stopScheduledBackups();
    // The signal itself, not cluster's disconnect: a draining worker still answers the primary (metrics, rate limits).
    const passed = isStopSignal(signal) ? signal : "SIGTERM";
    for (const { worker } of places.values()) worker.process.kill(passed);
    const { shutdownDelayMs, shutdownMs } = config.timeouts;
    setTimeout(() => {
      log.error("workers still running past their shutdown deadline; killing them", { workers: [...places.keys()] });
      failed = true;
      for (const { worker } of places.values()) worker.process.kill("SIGKILL");
    }, shutdownDelayMs + shutdownMs + STOP_GRACE_MS).unref();
    if (places.size === 0) await finish();
  }

  async function finish(): Promise<void> {
    metricsServer?.close();
    plantWriter?.close();
    log.info("shut down", { workers: count, failed });
    await flushLog();
    process.exit(failed ? 1 : 0);
  }

  // Until here a stop signal ended the primary at once (lib/server/stop-signals.ts); from here it stops the workers.
  onStopSignal((signal) => void stop(signal));
  onParentExit(() => {
    log.warn("the process that started the server has exited without stopping it");
    void stop("parent exited");
  });
  log.info("starting workers", { workers: count });
  for (let place = 0; place < count; place++) fork(place, 0);
}

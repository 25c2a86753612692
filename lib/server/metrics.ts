import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { existingProcessGlobal, processGlobal } from "@/lib/server/process-global";

// The process's Prometheus metrics, in one registry however many copies of
// this module Next's bundling makes (it lives on globalThis). Served by the
// server on its own listener (lib/server/http-server.ts).

const BACKUP_METRICS = "metrics.backups";

/**
 * Makes metrics registered in `registry` only, not in prom-client's global
 * one: each from its name, its help and, where it has them, its buckets and
 * label names.
 */
function metricsIn(registry: Registry) {
  const registers = [registry];
  return {
    counter: <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter({ name, help, labelNames, registers }),
    gauge: <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge({ name, help, labelNames, registers }),
    histogram: <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) => new Histogram({ name, help, buckets, labelNames, registers }),
  };
}

const WRITE_LOCK_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "plant_store_" });
  const { counter, gauge, histogram } = metricsIn(registry);
  return {
    registry,
    requests: counter("plant_store_http_requests_total", "API requests answered, by operation and status", ["operation", "status"]),
    duration: histogram(
      "plant_store_http_request_duration_seconds",
      "Time to answer an API request, by operation",
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      ["operation"],
    ),
    inFlight: gauge("plant_store_http_requests_in_flight", "API requests being answered now"),
    rateLimited: counter("plant_store_rate_limited_total", "Requests refused by a rate limit, by limit", ["limit"]),
    tokenChecks: counter("plant_store_token_checks_total", "Bearer tokens checked, by outcome", ["outcome"]),
    groupCommitBatch: histogram("plant_store_group_commit_batch_size", "Plants written by one group-commit statement", [1, 2, 5, 10, 20, 50, 100, 200, 500]),
    // SQLite's plant writes (issue 33: new plants, changes, deletes): from BEGIN IMMEDIATE to the end of COMMIT, and the COMMIT alone (the WAL's write and fsync).
    sqliteWriteLockHeld: histogram("plant_store_sqlite_write_lock_held_seconds", "Time a plant write's transaction held SQLite's write lock", WRITE_LOCK_BUCKETS),
    sqliteCommit: histogram("plant_store_sqlite_commit_seconds", "Time a plant write's COMMIT took on SQLite (the WAL's write and fsync)", WRITE_LOCK_BUCKETS),
    // lost, unreachable, busy: the database could not be used just now (answered 503, lib/db/database-outage.ts); other: a fault (500).
    databaseErrors: counter("plant_store_database_errors_total", "Requests that failed on a database error, by kind: lost, unreachable, busy (503) or other (500)", ["kind"]),
    // One per attempt: delivered (2xx), retrying (failed, another attempt is scheduled), failed (failed,
    // none is left), gone (410: the endpoint is disabled), refused (the target rules forbade the address).
    webhookDeliveries: counter("plant_store_webhook_deliveries_total", "Webhook delivery attempts, by outcome", ["outcome"]),
    // The event streams (issue 32): plants is GET /plants/events, activity is GET /activity/events.
    eventStreamsOpen: gauge("plant_store_event_streams_open", "Event streams open now, by feed: plants or activity", ["feed"]),
    // client (it went away), stalled (it took nothing for 20-30 s while events waited: cut), access (its
    // credentials no longer hold), shutdown (this process stops), failed (the stream could not read the database).
    eventStreamsEnded: counter("plant_store_event_streams_ended_total", "Event streams ended, by feed and reason: client, stalled, access, shutdown or failed", ["feed", "reason"]),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function metrics(): Metrics {
  return processGlobal("metrics", createMetrics);
}

/** This process's metrics, for its own listener: the scheduled backups' too, where it runs them. */
export function processMetrics(): { read(): Promise<string>; contentType: string } {
  const { registry } = metrics();
  return {
    // Looked up at each read: the backups start after the listener does.
    read: () => {
      const backups = existingProcessGlobal<BackupMetrics>(BACKUP_METRICS);
      return backups ? Registry.merge([registry, backups.registry]).metrics() : registry.metrics();
    },
    contentType: registry.contentType,
  };
}

/**
 * In a worker of several (issue 25): answers the primary's requests for this
 * process's metrics (prom-client's cluster messages), so that the primary's
 * /metrics adds up the workers'. Called once at the worker's start, from the
 * server's own code, before Next loads: the registry is then made by the
 * same copy of prom-client that answers (Next bundles a copy of its own).
 */
export function answerPrimaryForMetrics(): void {
  processGlobal("metrics.cluster-answers", () => {
    // Constructing one adds the listener for the primary's requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics().registry]);
    return true;
  });
}

/**
 * In the primary: the workers' metrics, each asked for its own and added up
 * by prom-client (counters and histograms summed; gauges summed too, which is
 * right for requests in flight and memory), then the scheduled backups',
 * which the primary itself runs (lib/backup/backup-schedule-link.ts). A
 * worker that does not answer within 5 s fails the scrape rather than
 * leaving its numbers out.
 *
 * The backups' metrics are appended rather than aggregated with the
 * workers': prom-client's clusterMetrics() answers text, not the workers'
 * JSON that AggregatorRegistry.aggregate() would take. Appending is exact
 * here because no worker has them (backupMetrics() is made only where the
 * backups run), and they are in a registry of their own. So are the
 * primary's own process metrics (its memory, CPU and event loop), under
 * names of their own (plant_store_primary_...), rather than second copies of
 * the workers' series: the server's whole memory is the workers' sum plus
 * the primary's.
 */
export function clusterMetrics(): { read(): Promise<string>; contentType: string } {
  const aggregator = new AggregatorRegistry();
  const primary = new Registry();
  collectDefaultMetrics({ register: primary, prefix: "plant_store_primary_" });
  return {
    read: async () => {
      const backups = existingProcessGlobal<BackupMetrics>(BACKUP_METRICS);
      const own = backups ? Registry.merge([primary, backups.registry]) : primary;
      const [workers, its] = await Promise.all([aggregator.clusterMetrics(), own.metrics()]);
      // Each text ends with its newline, unless it is empty (no worker up).
      return workers + its;
    },
    contentType: aggregator.contentType,
  };
}

/**
 * The scheduled backups' metrics (issue 23), made only where scheduled
 * backups run: elsewhere they are absent rather than zero, so that an alert
 * on a backup older than it should be never fires on an instance that takes
 * none (PostgreSQL, say). In a registry of their own, which the /metrics of
 * the process that runs them adds: the one server process's, or, with
 * several workers, the primary's (clusterMetrics()).
 */
export function backupMetrics() {
  return processGlobal(BACKUP_METRICS, () => {
    const registry = new Registry();
    const { counter, gauge } = metricsIn(registry);
    return {
      registry,
      lastSuccess: gauge("plant_store_backup_last_success_timestamp_seconds", "When the last successful scheduled backup finished, in seconds since the Unix epoch"),
      lastSize: gauge("plant_store_backup_last_size_bytes", "Size of the last successful scheduled backup, in bytes"),
      lastDuration: gauge("plant_store_backup_last_duration_seconds", "How long the last successful scheduled backup took, in seconds"),
      lastRunSuccess: gauge("plant_store_backup_last_run_success", "Whether the last scheduled backup attempt succeeded: 1, or 0 if it failed"),
      runs: counter("plant_store_backups_total", "Scheduled backup attempts since this process started, by outcome: succeeded or failed", ["outcome"]),
    };
  });
}

export type BackupMetrics = ReturnType<typeof backupMetrics>;

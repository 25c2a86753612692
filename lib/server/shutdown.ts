import type { Server } from "node:http";
import { stopScheduledBackups } from "@/lib/backup/scheduled-backups";
import { disconnectDatabase } from "@/lib/db/client";
import { stopSqliteCheckpoints } from "@/lib/db/sqlite-checkpoints";
import { closeRateLimits } from "@/lib/http/rate-limit";
import { stopActivityTail } from "@/lib/live/activity-tail";
import { stopChangeTail } from "@/lib/live/change-tail";
import { endAllStreams } from "@/lib/live/event-stream";
import type { BackgroundJob } from "@/lib/server/background-job";
import { lifecycle } from "@/lib/server/lifecycle";
import { exitAfterShutdown } from "@/lib/server/exit-after-shutdown";
import { log } from "@/lib/server/log";
import { onParentExit } from "@/lib/server/parent-exit";
import { onStopSignal, type StopSignal } from "@/lib/server/stop-signals";
import type { UnusedConnections } from "@/lib/server/unused-connections";
import type { WebhookWorker } from "@/lib/webhooks/delivery-worker";

// A clean stop on deploy (SIGTERM), on Ctrl-C (SIGINT), on a closed terminal
// (SIGHUP: lib/server/stop-signals.ts), or when the process that started the
// server has died without passing any on (SIGKILL to npm:
// lib/server/parent-exit.ts). Each is the same stop: readiness turns 503 at
// once; after the configured delay (time for a load balancer to notice) the
// port stops accepting connections, the requests in flight finish (a plant
// waiting in the group commit is written and answered as part of its
// request), Next.js and the database close, and the process exits 0. If the
// requests in flight take longer than the deadline, the connections left are
// cut and it exits 1. The webhook worker stops claiming at the same moment
// the port closes; its attempts in flight get half the deadline to finish,
// then are cut short and their deliveries given back for another worker.
// The activity retention ends its run after the step under way. The scheduled
// backups take no more; one under way is not waited for (it could take longer
// than the deadline): its half-made copy has a .partial name, never a backup's,
// and the next attempt removes it.

// How often the drain closes the connections that have turned idle.
const IDLE_CHECK_MS = 50;

type Running = {
  server: Server;
  unusedConnections: UnusedConnections;
  app: { close(): Promise<void> };
  metricsServer?: Server;
  webhookWorker?: WebhookWorker;
  activityRetention?: BackgroundJob;
  changeRetention?: BackgroundJob;
  delayMs: number;
  timeoutMs: number;
};

/**
 * Stops the server on a stop signal or its parent's exit, whichever comes first (a signal to the whole process
 * group comes twice: from the kernel, and passed on by npm); at once for a signal that came while it started.
 */
export function shutDownOnStop(running: Running): void {
  onStopSignal((signal) => void shutDown(signal, running));
  // An orphan's stop is worth a warning: whatever supervised the server is gone, and nothing will start it again.
  onParentExit(() => {
    log.warn("the process that started the server has exited without stopping it");
    void shutDown("parent exited", running);
  });
}

async function shutDown(signal: StopSignal | "parent exited", { server, unusedConnections, app, metricsServer, webhookWorker, activityRetention, changeRetention, delayMs, timeoutMs }: Running): Promise<void> {
  if (lifecycle().shuttingDown) return;
  lifecycle().shuttingDown = true;
  log.info("shutting down", { signal, delayMs, timeoutMs });
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  const deadline = setTimeout(() => {
    log.error("shutdown deadline passed; cutting the connections left", { timeoutMs });
    server.closeAllConnections();
    process.exit(1);
  }, timeoutMs);
  await exitAfterShutdown(signal, async () => {
    stopScheduledBackups();
    const workerStopped = webhookWorker?.stop(Math.floor(timeoutMs / 2));
    const retentionStopped = Promise.all([activityRetention?.stop(), changeRetention?.stop()]);
    // close() refuses new connections and closes idle keep-alive ones; a busy
    // connection closes once its answer is sent (answers now carry Connection: close).
    server.on("request", (_, response) => response.on("finish", () => server.closeIdleConnections()));
    // Open change streams never end by themselves: each client reconnects, after its retry, to a process that serves.
    endAllStreams();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    const closeIdle = () => {
      server.closeIdleConnections();
      unusedConnections.closeUnused();
    };
    closeIdle();
    // A request that came before the signal is answered without Connection: close, and leaves its
    // connection idle, not closed: Node would keep it for KEEP_ALIVE_TIMEOUT_MS, and the drain with it.
    // A connection that has carried no request Node does not count as idle (lib/server/unused-connections.ts).
    const closingIdle = setInterval(closeIdle, IDLE_CHECK_MS);
    await drained;
    clearInterval(closingIdle);
    await app.close();
    // Before the database closes: the worker records its last outcomes and gives back its claims.
    await workerStopped;
    await retentionStopped;
    await stopActivityTail();
    await stopChangeTail();
    await Promise.all([disconnectDatabase(), closeRateLimits(), stopSqliteCheckpoints()]);
    metricsServer?.close();
    clearTimeout(deadline);
  });
}

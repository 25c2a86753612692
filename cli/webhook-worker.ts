// npm run worker (`exec node --max-old-space-size=256 cli/launch.mjs webhook-worker`):
// the webhook delivery worker as a process of its own, for deployments that
// keep it apart from the web servers (set WEBHOOK_WORKER=off for them). It
// brings the database up to date as the server does, sends until a stop
// signal (SIGTERM, SIGINT or SIGHUP, as the server: lib/server/stop-signals.ts),
// then finishes or gives back what it holds, closes the database and exits 0.
// Compiled at build and run by Node alone, like npm start (before a build,
// with tsx loaded into the same process: tsx's CLI would run it as a child and
// SIGKILL it if it did not acknowledge a signal within 30 ms, cutting that
// clean stop short).
import { disconnectDatabase } from "@/lib/db/client";
import { env } from "@/lib/server/env";
import { exitAfterShutdown } from "@/lib/server/exit-after-shutdown";
import { log } from "@/lib/server/log";
import { startServer } from "@/lib/server/startup";
import { catchStopSignals, onStopSignal, type StopSignal } from "@/lib/server/stop-signals";
import { startWebhookWorker } from "@/lib/webhooks/delivery-worker";

async function main(): Promise<void> {
  // A stop before the worker runs exits 0 at once; from then on it drains.
  catchStopSignals();
  // Validates the configuration (exits 1 naming a bad variable) and migrates. It opens the endpoints'
  // sealed secrets to sign with: NEXTAUTH_SECRET it needs; the server actions' key is the web server's.
  await startServer(["NEXTAUTH_SECRET"]);
  const worker = startWebhookWorker();
  let stopping = false;
  const stop = async (signal: StopSignal) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    await exitAfterShutdown(signal, async () => {
      await worker.stop(env().timeouts.shutdownMs);
      await disconnectDatabase();
    });
  };
  onStopSignal((signal) => void stop(signal));
}

void main();

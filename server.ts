// npm start: the production server (lib/server/http-server.ts), as compiled
// by `npm run build` (cli/build-server-and-clis.ts) and run by Node alone. A bad
// configuration stops it here, with the message naming the variable. With more
// than one worker (WEB_CONCURRENCY, issue 25), this process becomes their
// primary (lib/server/cluster-primary.ts), and each worker runs this file again.

import { catchStopSignals } from "@/lib/server/stop-signals";

// First: a stop signal that comes while the server starts is kept for its stop, rather than killing it.
catchStopSignals();

// What `next start` sets before Next.js loads: React and Next pick their
// production builds when first required, hence the rest comes after, by import()
// (each its own chunk once compiled, so that nothing of it loads first).
Object.assign(process.env, { NODE_ENV: "production" });

async function main(): Promise<void> {
  const { EnvError, env } = await import("@/lib/server/env");
  const { describeError, log } = await import("@/lib/server/log");
  const fail = (error: unknown) => {
    if (error instanceof EnvError) process.stderr.write(`plant-store: ${error.message}\n`);
    else log.error("server failed to start", describeError(error));
    process.exit(1);
  };
  try {
    const { default: cluster } = await import("node:cluster");
    const { workerCount } = await import("@/lib/server/worker-count");
    const workers = cluster.isPrimary ? workerCount(env().workers) : 1;
    if (workers > 1) {
      // The primary never loads Next.js: its chunk holds only what it runs.
      const { runPrimary } = await import("@/lib/server/cluster-primary");
      await runPrimary(workers).catch(fail);
      return;
    }
  } catch (error) {
    fail(error);
  }
  const { runServer } = await import("@/lib/server/http-server");
  await runServer().catch(fail);
}

void main();

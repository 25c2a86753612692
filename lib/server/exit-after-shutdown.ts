import { describeError, flushLog, log } from "@/lib/server/log";

/**
 * The end of a clean stop, for the server (lib/server/shutdown.ts) and the
 * webhook worker's own process: `close` lets go of what the process holds;
 * then the log says so, is flushed, and the process exits 0. If closing
 * fails, the log says why and the process exits 1.
 */
export async function exitAfterShutdown(signal: string, close: () => Promise<void>): Promise<void> {
  try {
    await close();
    log.info("shut down", { signal });
    await flushLog();
    process.exit(0);
  } catch (error) {
    log.error("shutdown failed", describeError(error));
    process.exit(1);
  }
}

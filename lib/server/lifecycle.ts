import { processGlobal } from "@/lib/server/process-global";

/** Whether this process has begun to shut down: readiness then answers 503, and new connections are refused. */
export function lifecycle(): { shuttingDown: boolean } {
  return processGlobal("lifecycle", () => ({ shuttingDown: false }));
}

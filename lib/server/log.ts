import pino from "pino";
import { workerPlace } from "@/lib/server/cluster-role";
import { env } from "@/lib/server/env";
import { existingProcessGlobal, processGlobal } from "@/lib/server/process-global";

// One JSON object per line on stdout (pino, without transports: they run in
// worker threads, which Next's bundling breaks). Callers pass facts, never
// secrets: tokens, passwords, cookies, request bodies and the auth secret are
// logged nowhere in this codebase.

type Fields = Record<string, unknown>;

function logger(): pino.Logger {
  return processGlobal("log", () =>
    pino({
      level: env().logLevel,
      // A worker of several names its place on each line; the one server process adds nothing.
      base: workerPlace() === undefined ? undefined : { worker: workerPlace() },
      messageKey: "message",
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    // Written without blocking: a line waits only while the previous write is under way, and
    // lines that arrive meanwhile go out together (one write a request cost about 20 µs under
    // load, and a full pipe stalled every request). What is still waiting is written out when
    // the process exits, however it exits short of a kill -9.
    pino.destination({ dest: existingProcessGlobal<true>("log.to-stderr") ? 2 : 1, sync: false })),
  );
}

/**
 * Sends this process's log lines to stderr rather than stdout: an operator
 * CLI's stdout is its answer (a token, a link, JSON), which a script captures
 * whole. Called before anything is logged.
 */
export function logToStderr(): void {
  processGlobal("log.to-stderr", () => true);
}

export const log = {
  debug: (message: string, fields: Fields = {}) => logger().debug(fields, message),
  info: (message: string, fields: Fields = {}) => logger().info(fields, message),
  warn: (message: string, fields: Fields = {}) => logger().warn(fields, message),
  error: (message: string, fields: Fields = {}) => logger().error(fields, message),
};

/**
 * Resolves once every line logged so far is written. Before process.exit: the
 * exit handler writes what still waits synchronously, and a line whose
 * asynchronous write was under way could then land after it (seen: a
 * worker's "shut down" before its "webhook worker stopped").
 */
export function flushLog(): Promise<void> {
  const logger = existingProcessGlobal<pino.Logger>("log");
  if (!logger) return Promise.resolve();
  return new Promise((resolve) => logger.flush(() => resolve()));
}

export function describeError(error: unknown): Fields {
  if (error instanceof Error) return { error: error.name, detail: error.message, stack: error.stack };
  return { error: String(error) };
}

import { spawn } from "node:child_process";
import path from "node:path";
import { SLOW_MACHINE_CLOCKS } from "@/test/support/app-env";
import type { Exit } from "@/test/support/app-server";
import { appEnv } from "@/test/support/app-env";
import { cliCommand } from "@/test/support/cli";
import type { TestDatabase } from "@/test/support/test-database";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";

// `npm run worker` as operators run it: the command read from package.json,
// node's flags included, as its own process on a test database.

const ROOT = path.resolve(import.meta.dirname, "../..");

export type WorkerProcess = {
  output(): string;
  /** Sends a signal (SIGTERM by default) and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
};

/** Starts the worker and waits until it says it runs. */
export async function startWorkerProcess(database: Pick<TestDatabase, "env">, env: Partial<NodeJS.ProcessEnv> = {}): Promise<WorkerProcess> {
  // A webhook attempt given the time startApp's apps give it, unless a test sets its own.
  const clock = { WEBHOOK_TIMEOUT_MS: SLOW_MACHINE_CLOCKS.WEBHOOK_TIMEOUT_MS };
  const child = spawn(process.execPath, cliCommand("worker"), { cwd: ROOT, env: appEnv(database, { ...clock, ...env }), stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
  // "close", not "exit": the last lines written before exiting may still be in the pipe at "exit".
  const exited = new Promise<Exit>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!log.includes('"message":"webhook worker started"')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    output: () => log,
    kill: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "@/test/support/app-server";

// The framework's ceiling (bench/ceiling): a Next.js app, built with the
// project's own Next, whose route handlers answer a constant. `next start`
// serves it, as Next's own docs run an app; with workers, `next start` in
// each worker of node:cluster (bench/ceiling-cluster.mjs), as the app's own
// primary runs its workers.

const ROOT = path.resolve(import.meta.dirname, "..");
const CEILING = path.join(ROOT, "bench/ceiling");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const CLUSTER = path.join(ROOT, "bench/ceiling-cluster.mjs");

export type CeilingApp = { url: string; pid: number | undefined; stop: () => Promise<void> };

export function buildCeiling(): void {
  console.log("building the ceiling app with the project's Next.js ...");
  execFileSync(process.execPath, [NEXT_BIN, "build", CEILING], { stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
}

/** Starts the built ceiling app, in one process or in `workers`; nodeOptions go to node itself (--cpu-prof, say). */
export async function startCeiling({ nodeOptions = [], workers = 1 }: { nodeOptions?: string[]; workers?: number } = {}): Promise<CeilingApp> {
  const port = await freePort();
  const serve = [CEILING, "-H", "127.0.0.1", "-p", String(port)];
  const child = spawn(process.execPath, workers > 1 ? [...nodeOptions, CLUSTER, String(workers), ...serve] : [...nodeOptions, NEXT_BIN, "start", ...serve], {
    stdio: workers > 1 ? ["ignore", "ignore", "ignore", "ipc"] : "ignore",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  // The first worker to listen answers before the others do: wait for all, lest the first rounds meet one.
  if (workers > 1) {
    await new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("exit", () => reject(new Error("the ceiling app did not start")));
    });
  }
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(`${url}/plants`, { method: "POST" });
      return { url, pid: child.pid, stop: () => stop(child) };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stop(child);
  throw new Error("the ceiling app did not start");
}

/** SIGINT: `next start` exits cleanly on it, so that a --cpu-prof profile is written. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGINT");
  });
}

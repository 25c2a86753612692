import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "@/test/support/app-server";

// The framework's ceiling (bench/ceiling): a Next.js app, built with the
// project's own Next, whose route handlers answer a constant. `next start`
// serves it, as Next's own docs run an app.

const ROOT = path.resolve(import.meta.dirname, "..");
const CEILING = path.join(ROOT, "bench/ceiling");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

export type CeilingApp = { url: string; pid: number | undefined; stop: () => Promise<void> };

export function buildCeiling(): void {
  console.log("building the ceiling app with the project's Next.js ...");
  execFileSync(process.execPath, [NEXT_BIN, "build", CEILING], { stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
}

/** Starts the built ceiling app; nodeOptions go to node itself (--cpu-prof, say). */
export async function startCeiling({ nodeOptions = [] }: { nodeOptions?: string[] } = {}): Promise<CeilingApp> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeOptions, NEXT_BIN, "start", CEILING, "-H", "127.0.0.1", "-p", String(port)], {
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
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

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

// Starts the real, built app (`next start`) on its own port and its own data
// directory, so every test file gets a fresh SQLite database and secret.
// Run `npm run build` first; `npm test` does.

const ROOT = path.resolve(import.meta.dirname, "../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const TSX_BIN = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");

export type AppServer = {
  url: string;
  dataDir: string;
  databasePath: string;
  env: NodeJS.ProcessEnv;
  /** Output of the server process so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same port and data. */
  restart(): Promise<void>;
};

export function makeDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "plant-store-test-"));
}

// Partial: Next's types make NODE_ENV required in ProcessEnv, and overrides need not set it.
export function appEnv(dataDir: string, extra: Partial<NodeJS.ProcessEnv> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATA_DIR: dataDir, DATABASE_URL: "", NEXTAUTH_SECRET: "", ...extra };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function startApp(options: { dataDir?: string; env?: Partial<NodeJS.ProcessEnv> } = {}): Promise<AppServer> {
  const dataDir = options.dataDir ?? makeDataDir();
  const port = await freePort();
  const env = appEnv(dataDir, options.env);
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  let child: ChildProcess | undefined;

  async function launch() {
    child = spawn(process.execPath, [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    await waitUntilServing(url, child, () => log);
  }

  async function stop(signal: NodeJS.Signals = "SIGTERM") {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill(signal);
    });
  }

  await launch();
  return {
    url,
    dataDir,
    databasePath: path.join(dataDir, "plant-store.db"),
    env,
    output: () => log,
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
  };
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}:\n${output()}`);
    try {
      // Any HTTP answer means the server listens and start-up (migrations) is done.
      await fetch(`${url}/plants`, { method: "OPTIONS" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`the app did not start within 30 s:\n${output()}`);
}

const run = promisify(execFile);

/** Runs the operator's token CLI against a data directory, as an operator would. */
export async function tokenCli(dataDir: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [TSX_BIN, "lib/cli/token.ts", ...args], { cwd: ROOT, env: appEnv(dataDir) });
}

export async function createToken(dataDir: string, scopes: string[] = ["plants:write"], expires = "1h"): Promise<string> {
  const { stdout } = await tokenCli(dataDir, ["create", "--name", "test", ...scopes.flatMap((scope) => ["--scope", scope]), "--expires", expires]);
  return stdout.trim();
}

export type AppWithTokens = { app: AppServer; writeToken: string; readToken: string };

/** A fresh app with a plants:write and a plants:read token, as most HTTP test files want. */
export async function startAppWithTokens(): Promise<AppWithTokens> {
  const app = await startApp();
  const [writeToken, readToken] = await Promise.all([createToken(app.dataDir, ["plants:write"]), createToken(app.dataDir, ["plants:read"])]);
  return { app, writeToken, readToken };
}

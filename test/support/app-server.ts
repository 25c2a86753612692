import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { appEnv, SLOW_MACHINE_CLOCKS, startScriptArguments } from "./app-env";
import { HANG_GUARD_MS } from "./hang-guard";
import { makeTestDatabase, type TestDatabase } from "./test-database";

// Starts the real, built app (`npm start`: server.ts) on its own port, on a fresh test
// database of the run's engine (or on one it is given, to run several
// instances as one service). Run `npm run build` first; `npm test` does.
// A Playwright spec loads this file too (e2e/page-weight.spec.ts, for a page
// only an empty database has), as CommonJS: hence relative imports, and the
// root taken from the working directory, which is the project's for Vitest,
// Playwright and the npm scripts alike.

const ROOT = process.cwd();
// The production server, exactly as `npm start` runs it in that checkout (test/support/app-env.ts).
const serverArguments = (root: string) => startScriptArguments(root).map((arg) => (arg.startsWith("-") ? arg : path.join(root, arg)));

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type AppServer = {
  url: string;
  database: TestDatabase;
  env: NodeJS.ProcessEnv;
  /** Output of the server process so far. */
  output(): string;
  /** Stops the server for good; a database the app was not given is dropped too. */
  stop(): Promise<void>;
  /** Sends the server a signal (SIGTERM by default) and waits for it to exit; the database stays. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
  /** The port the server listens on. */
  port: number;
  /** The server process's id while it runs. */
  pid(): number | undefined;
  /** Starts the server again on the same port and data, and waits for it as startApp does: with several workers, for every one. */
  restart(): Promise<void>;
};

// Ports this process has handed out. The OS may offer a port it just freed
// again at once (seen here: an app's port and its metrics port came out the
// same), so a port is handed out once per process.
const handedOut = new Set<number>();

/** A free TCP port on 127.0.0.1, never one this process was given before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts the app. keepOutput: false drops what the server writes once it
 * serves (a bench's hundreds of thousands of request lines), as a log
 * shipper would take them off its hands. nodeOptions go to node itself
 * (--cpu-prof, say, which NODE_OPTIONS does not allow).
 */

export async function startApp(
  options: { database?: TestDatabase; env?: Partial<NodeJS.ProcessEnv>; keepOutput?: boolean; nodeOptions?: string[]; port?: number; root?: string } = {},
): Promise<AppServer> {
  const database = options.database ?? (await makeTestDatabase());
  const ownsDatabase = options.database === undefined;
  // A port chosen beforehand when the app must know its own address (NEXTAUTH_URL).
  const port = options.port ?? (await freePort());
  // Metrics off unless a test asks for them: many apps start at once, and the default port is one.
  const env = appEnv(database, { HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: "off", ...SLOW_MACHINE_CLOCKS, ...options.env });
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  let child: ChildProcess | undefined;

  async function launch() {
    let keep = true;
    // `root`: another checkout's build, which a bench compares with this one.
    const root = options.root ?? ROOT;
    // Until this launch serves, read in its own output: a restart's log still holds the last launch's
    // "listening", which would not wait for the new workers.
    const from = log.length;
    child = spawn(process.execPath, [...(options.nodeOptions ?? []), ...serverArguments(root)], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (chunk: Buffer) => keep && (log += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => keep && (log += chunk.toString()));
    await waitUntilServing(url, child, () => log.slice(from), env);
    keep = options.keepOutput ?? true;
  }

  async function halt(signal: NodeJS.Signals = "SIGTERM"): Promise<Exit> {
    const running = child;
    if (!running) return { code: null, signal: null };
    if (running.exitCode !== null || running.signalCode !== null) return { code: running.exitCode, signal: running.signalCode };
    return new Promise((resolve) => {
      // "close", not "exit": the last lines written before exiting may still be in the pipe at "exit".
      running.once("close", (code, exitSignal) => resolve({ code, signal: exitSignal }));
      running.kill(signal);
    });
  }

  try {
    await launch();
  } catch (error) {
    if (ownsDatabase) await database.drop();
    throw error;
  }
  const app: AppServer = {
    url,
    port,
    database,
    env,
    output: () => log,
    stop: async () => {
      await halt();
      running.delete(app);
      if (ownsDatabase) await database.drop();
    },
    kill: halt,
    pid: () => child?.pid,
    restart: async () => {
      await halt();
      await launch();
    },
  };
  running.add(app);
  return app;
}

// The apps this process has started and not stopped, for the failure report (test/support/app-failures.ts).
const running = new Set<AppServer>();

// What a server logs when it answered 500 or gave up on something: the cause a failed test's assertion cannot show.
const TROUBLE = /"level":"(error|fatal)"|"message":"unhandled error"|"status":5\d\d/;

/** The trouble the apps still running have logged (troubleReport), app by app; empty when there is none. */
export function troubleInRunningApps(): string {
  return [...running].map((app) => troubleReport(app)).filter(Boolean).join("\n\n");
}

/**
 * The lines of trouble an app has logged (errors, unhandled errors, 5xx answers), the last 20, each cut
 * to 1,200 characters, under a heading naming the app; empty when there are none.
 */
export function troubleReport({ env, output }: Pick<AppServer, "env" | "output">, limit = 20, width = 1_200): string {
  const lines = output().split("\n").filter((line) => TROUBLE.test(line));
  if (lines.length === 0) return "";
  const shown = lines.slice(-limit).map((line) => (line.length > width ? `${line.slice(0, width)}…` : line));
  const processes = env.WEB_CONCURRENCY === "1" ? "one process" : `WEB_CONCURRENCY=${env.WEB_CONCURRENCY}`;
  return [`the app on port ${env.PORT} (${processes}) logged ${lines.length} line(s) of trouble${lines.length > limit ? `, the last ${limit}` : ""}:`, ...shown].join("\n");
}

/**
 * Until the app answers. With several workers (issue 25), until every one
 * listens: the first answers while the others still load Next, and a test
 * that spreads requests over them would find one. The primary says so in its
 * "listening" line (read where the log level shows it).
 */
async function waitUntilServing(url: string, child: ChildProcess, output: () => string, env: NodeJS.ProcessEnv): Promise<void> {
  const workers = env.WEB_CONCURRENCY !== "1";
  const allListen = workers && ["debug", "info", undefined, ""].includes(env.LOG_LEVEL);
  const deadline = Date.now() + HANG_GUARD_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}:\n${output()}`);
    try {
      // Any HTTP answer means the server listens and start-up (migrations) is done.
      await fetch(`${url}/plants`, { method: "OPTIONS" });
      if (!allListen || /"message":"listening"/.test(output())) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the app did not start within ${HANG_GUARD_MS / 1000} s:\n${output()}`);
}

/**
 * A token as `token create --name label --scope ... --expires expires` makes it, made in this
 * process (test/support/api-tokens.ts); a label of its own lets a test find its record among
 * other files' tokens (on the shared app). Loaded when first called: Playwright loads this file
 * too, and its specs make no tokens here.
 */
export async function createToken(database: TestDatabase, scopes: string[] = ["plants:write"], expires = "1h", label = "test"): Promise<string> {
  const [{ makeApiToken }, { isScope }, { default: ms }] = await Promise.all([import("./api-tokens"), import("../../lib/validations/api-token"), import("ms")]);
  // As the CLI reads --scope: "" names no scope (a token for none this version knows).
  const named = scopes.flatMap((scope) => scope.split(/[\s,]+/)).filter(Boolean);
  const unknown = named.filter((scope) => !isScope(scope));
  if (unknown.length > 0) throw new Error(`unknown scope ${unknown.join(", ")}`);
  const lifetimeMs = ms(expires as Parameters<typeof ms>[0]) as number | undefined;
  if (lifetimeMs === undefined || !(lifetimeMs >= 1000)) throw new Error(`${expires} is not a duration such as 1h or 30d`);
  return makeApiToken(database, { label, scopes: named.filter(isScope), lifetimeSeconds: Math.floor(lifetimeMs / 1000) });
}

export type AppWithTokens = { app: AppServer; writeToken: string; readToken: string };

/** A fresh app with a plants:write and a plants:read token, as most HTTP test files want. */
export async function startAppWithTokens(): Promise<AppWithTokens> {
  const app = await startApp();
  const [writeToken, readToken] = await Promise.all([createToken(app.database, ["plants:write"]), createToken(app.database, ["plants:read"])]);
  return { app, writeToken, readToken };
}

import { spawn } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { afterAll, expect, it } from "vitest";
import { workerCount } from "@/lib/server/worker-count";
import { appEnv, SLOW_MACHINE_CLOCKS, startScriptArguments } from "@/test/support/app-env";
import { type AppServer, type Exit, freePort, startApp } from "@/test/support/app-server";
import { type LogLine, logLines, waitForLine } from "@/test/support/app-log";
import { catchesStopSignals, childPids, pidsWithEnv } from "@/test/support/process-tree";
import { makeTestDatabase } from "@/test/support/test-database";

// How many server processes `npm start` runs (issue 25): WEB_CONCURRENCY, auto
// (one per core, as many as fit in memory) when unset; 1 is the one server
// process of before, with no primary. A value that is no number of processes
// stops it at start, and so does a PORT in use, leaving no worker behind. A
// stop asked for while it starts is a stop like any other: exit 0, nothing left.

const apps: AppServer[] = [];

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
});

it("runs one worker per core this machine gives it when WEB_CONCURRENCY is unset, behind a primary", async () => {
  // Empty is unset (lib/server/env.ts): the test's own default of 1 (test/support/app-env.ts) is taken away.
  const app = await startApp({ env: { WEB_CONCURRENCY: "" } });
  apps.push(app);
  // What auto is on this machine (lib/server/worker-count.ts): on one core, the one process and no primary.
  const expected = workerCount("auto");
  const forked = expected > 1 ? expected : 0;
  const listening = await waitForLine(app.output, (line) => line.message === "listening");
  expect(listening.workers).toBe(forked || undefined);
  const lines = logLines(app.output());
  // One primary, which forks them all, then as many workers as it said.
  expect(lines.filter((line) => line.message === "starting workers").map((line) => line.workers)).toEqual(forked ? [forked] : []);
  expect(new Set(lines.filter((line) => line.message === "worker listening").map((line) => line.worker))).toEqual(new Set(Array.from({ length: forked }, (_, place) => place)));
  const workers = childPids(app.pid()!);
  expect(workers).toHaveLength(forked);
  // The processes of this app, found as the last test looks for what is left of one.
  expect(pidsWithEnv("DATA_DIR", app.database.dataDir).sort((a, b) => a - b)).toEqual([app.pid()!, ...workers].sort((a, b) => a - b));
});

it("runs the one server process, with no primary, when WEB_CONCURRENCY=1", async () => {
  const app = await startApp({ env: { WEB_CONCURRENCY: "1" } });
  apps.push(app);
  const listening = await waitForLine(app.output, (line) => line.message === "listening");
  expect(listening).not.toHaveProperty("workers");
  const lines = logLines(app.output());
  expect(lines.filter((line) => line.message === "starting workers" || line.message === "worker listening")).toEqual([]);
  expect(lines.filter((line) => line.worker !== undefined)).toEqual([]);
  expect(childPids(app.pid()!)).toEqual([]);
});

it.each(["0", "many", "-2"])("stops at start with WEB_CONCURRENCY=%s, naming WEB_CONCURRENCY", async (value) => {
  const failure = startApp({ env: { WEB_CONCURRENCY: value } });
  await expect(failure).rejects.toThrow(/the app exited with 1/);
  await expect(failure).rejects.toThrow(
    "plant-store: Invalid configuration (see .env.example):\n  WEB_CONCURRENCY: must be a whole number of server processes, 1 to 1024, or auto (one per core, as many as fit in memory)",
  );
});

it("stops with 1 when PORT is in use, naming PORT, and leaves no worker behind", async () => {
  // Another program on the port: it takes connections and drops them, so no answer looks like the app's.
  const port = await freePort();
  const occupant = createServer((socket: Socket) => socket.destroy());
  await new Promise<void>((resolve) => occupant.listen(port, "127.0.0.1", resolve));
  const database = await makeTestDatabase();
  try {
    const failure = startApp({ database, port, env: { WEB_CONCURRENCY: "2" } });
    await expect(failure).rejects.toThrow(/the app exited with 1/);
    await expect(failure).rejects.toThrow(
      `plant-store: PORT: 127.0.0.1:${port} is in use, by another program or another instance of this app; give each instance on a machine its own PORT`,
    );
    await expect(failure).rejects.toThrow(/"message":"a worker exited before it served; stopping"/);
    // The primary exits once every worker has: none is left holding the database or waiting on the port.
    expect(pidsWithEnv("DATA_DIR", database.dataDir)).toEqual([]);
  } finally {
    occupant.close();
    await database.drop();
  }
});

type Moment = [what: string, workers: string, signalAfter?: (line: LogLine) => boolean];

// SIGTERM (what a supervisor sends) to the server at each of these moments. How far the start has got when the
// signal lands is the machine's to decide, and the outcome must not depend on it: the first moment is as early as
// a signal can be handled at all, the others before the workers listen, and between some listening and all.
it.each<Moment>([
  ["as soon as the server catches signals, one process", "1"],
  ["as soon as the server catches signals, two workers", "2"],
  ["once the primary has forked the workers", "2", (line) => line.message === "starting workers"],
  ["once the first worker listens", "2", (line) => line.message === "worker listening"],
])("a SIGTERM %s: exit 0, and no process left", async (_, workers, signalAfter) => {
  const database = await makeTestDatabase();
  try {
    // The drain's deadline as a hang guard: a worker that has just listened may still be loading Next.js's routes in
    // the background, and on a busy machine drain behind them for longer than the default 10 s.
    const env = appEnv(database, { HOST: "127.0.0.1", PORT: String(await freePort()), METRICS_PORT: "off", WEB_CONCURRENCY: workers, SHUTDOWN_TIMEOUT_MS: SLOW_MACHINE_CLOCKS.SHUTDOWN_TIMEOUT_MS });
    // Not startApp, which waits for the server to listen: the signal must be able to come before it does.
    const server = spawn(process.execPath, startScriptArguments(), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // "close": every process that held the server's output (its workers too) has exited.
    const exited = new Promise<Exit>((resolve) => server.once("close", (code, signal) => resolve({ code, signal })));
    // Before its first line runs, a signal is Node's own default, a kill: no code can answer it.
    await expect.poll(() => catchesStopSignals(server.pid!), { interval: 5, timeout: 30_000 }).toBe(true);
    if (signalAfter) await waitForLine(() => output, signalAfter);
    server.kill("SIGTERM");
    expect(await exited, output).toEqual({ code: 0, signal: null });
    expect(pidsWithEnv("DATA_DIR", database.dataDir)).toEqual([]);
  } finally {
    await database.drop();
  }
});

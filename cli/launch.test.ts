import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appEnv } from "@/test/support/app-env";
import { type CliName, cliCommand } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";

// How `npm run token` and the other CLIs start (cli/launch.mjs, issue 20),
// through npm itself, as operators type them: after `npm run build`, the
// compiled CLI with Node alone; in a checkout without a build, the sources
// through tsx, slower but the same to whoever runs it. Which code ran is read
// from Node's own coverage record (NODE_V8_COVERAGE), not guessed from timing.
// The choice is the same on either engine: checked once, on SQLite.

const ROOT = process.cwd();
const CLIS: CliName[] = ["token", "user", "webhook", "activity", "db:migrate", "worker"];
const freshDatabase = freshDatabases();

// Made before the tests: this checkout as it would be before `npm run build`
// (everything but .next, linked), and the coverage records of the runs.
let scratch = "";
const unbuilt = () => path.join(scratch, "unbuilt");
let coverageDirs = 0;
const coverageDir = () => path.join(scratch, `coverage-${++coverageDirs}`);

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group has ended: nothing left to stop.
    }
  }
});

type Exit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };
type NpmRun = { child: ChildProcess; output(): string; exited: Promise<Exit> };

function npmRun(cwd: string, script: CliName, args: string[], options: { database: TestDatabase; coverage?: string; stdin?: string }): NpmRun {
  const env = appEnv(options.database, options.coverage ? { NODE_V8_COVERAGE: options.coverage } : {});
  // A process group of its own, so that whatever a failed test leaves running can be ended with it.
  const child = spawn("npm", ["run", "--silent", script, "--", ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  started.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? "");
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      const done = () => resolve({ code, signal, stdout, stderr });
      // A process npm left behind would hold the pipes open: wait for the rest of the output, not forever.
      child.once("close", done);
      setTimeout(done, 30_000).unref();
    }),
  );
  return { child, output: () => stdout + stderr, exited };
}

/** The files every Node process of a run executed, as file paths, from the coverage Node wrote at its exit. */
function executedFiles(coverage: string): string[] {
  return readdirSync(coverage).flatMap((file) => {
    const { result } = JSON.parse(readFileSync(path.join(coverage, file), "utf8")) as { result: { url: string }[] };
    return result.filter(({ url }) => url.startsWith("file://")).map(({ url }) => decodeURIComponent(new URL(url).pathname));
  });
}

// npm runs a script through `sh -c`, which does not pass signals on: `exec`
// makes Node that shell's process, so the SIGTERM npm forwards reaches the worker.
async function expectWorkerToStopOnSigterm(cwd: string): Promise<void> {
  const worker = npmRun(cwd, "worker", [], { database: await freshDatabase() });
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!worker.output().includes('"message":"webhook worker started"')) {
    if (worker.child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not start:\n${worker.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  worker.child.kill("SIGTERM");
  const exit = await worker.exited;
  expect(exit).toMatchObject({ code: 0, signal: null });
  // Both lines, in either order: the log's last lines are written out at exit, beside a write still under way.
  expect(exit.stdout).toContain('"signal":"SIGTERM","message":"shutting down"');
  expect(exit.stdout).toContain('"signal":"SIGTERM","message":"shut down"');
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "plant-store-launch-"));
  mkdirSync(unbuilt());
  for (const entry of readdirSync(ROOT)) if (entry !== ".next") symlinkSync(path.join(ROOT, entry), path.join(unbuilt(), entry));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const onSqlite = describe.skipIf(testDatabaseProvider() !== "sqlite");

onSqlite("after npm run build", () => {
  it.each(CLIS)("npm run %s names a CLI the build compiled", (name) => {
    const [launcher, cli] = cliCommand(name).slice(-2);
    expect(launcher).toBe("cli/launch.mjs");
    expect(existsSync(path.join(ROOT, ".next/plant-store-cli", `${cli}.cjs`)), "npm run build first").toBe(true);
  });

  it("npm run token runs the compiled CLI with Node alone: no tsx, no TypeScript", async () => {
    const coverage = coverageDir();
    const run = await npmRun(ROOT, "token", ["list"], { database: await freshDatabase(), coverage }).exited;
    expect(run).toMatchObject({ code: 0, stdout: "no tokens\n", stderr: "" });
    const executed = executedFiles(coverage);
    expect(executed).toContain(path.join(ROOT, ".next/plant-store-cli/token.cjs"));
    expect(executed.filter((file) => file.endsWith(".ts") || file.includes("/node_modules/tsx/"))).toEqual([]);
  });

  it("npm run worker, sent SIGTERM, stops cleanly and exits 0", () => expectWorkerToStopOnSigterm(ROOT));
});

onSqlite("before npm run build", () => {
  it("npm run user runs the sources through tsx, with the same arguments, stdin, output and exit code", async () => {
    const database = await freshDatabase();
    const coverage = coverageDir();
    const args = ["create", "--email", "Ana@Example.com", "--role", "staff"];
    const created = await npmRun(unbuilt(), "user", args, { database, coverage, stdin: "a long enough passphrase\n" }).exited;
    expect(created).toMatchObject({ code: 0, stdout: "", stderr: expect.stringMatching(/^created staff ana@example.com \(/) });
    const executed = executedFiles(coverage);
    expect(executed).toContain(path.join(ROOT, "cli/user.ts"));
    expect(executed.filter((file) => file.includes("/.next/"))).toEqual([]);

    const wrong = await npmRun(unbuilt(), "user", ["fly"], { database }).exited;
    expect(wrong).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^user: unknown command fly\nusage:\n/) });
  });

  it("npm run worker, sent SIGTERM, stops cleanly and exits 0", () => expectWorkerToStopOnSigterm(unbuilt()));
});

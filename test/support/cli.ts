import { execFile } from "node:child_process";
import path from "node:path";
import { appEnv } from "./app-env";
import type { TestDatabase } from "./test-database";

// The one way tests run an operator CLI: as its own process, through tsx, the
// way `npm run <name>` runs it, against a test data directory.
// The Playwright fixtures load this file too, as CommonJS (no import.meta),
// hence relative imports and the root taken from the working directory:
// Vitest, Playwright and npm scripts all run from the project's root.

const ROOT = process.cwd();
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");

export type CliName = "token" | "user" | "webhook" | "db-migrate";
export type CliRun = { code: number; stdout: string; stderr: string };

/** Runs cli/<name>.ts; never throws, the exit code is part of the answer. */
export function runCli(name: CliName, args: string[], options: { database: Pick<TestDatabase, "env">; env?: Partial<NodeJS.ProcessEnv>; stdin?: string }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [TSX, path.join(ROOT, "cli", `${name}.ts`), ...args],
      { cwd: ROOT, env: appEnv(options.database, options.env) },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.stdin ?? "");
  });
}

/** The token CLI, for a run that must succeed. */
export async function tokenCli(database: TestDatabase, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const run = await runCli("token", args, { database });
  if (run.code !== 0) throw new Error(`token ${args.join(" ")} exited with ${run.code}:\n${run.stderr}`);
  return run;
}

import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { appEnv } from "./app-env";
import type { TestDatabase } from "./test-database";

// The one way tests run an operator CLI: as its own process, with the command
// `npm run <name>` runs (read from package.json, node's flags included), from
// the project's root, against a test data directory. After `npm run build`
// that is the compiled CLI; before it, the sources through tsx (cli/launch.mjs).
// npm itself is left out: it costs a Node process of its own per call, and the
// tests of cli/launch.test.ts go through it where it matters (signals).
// The Playwright fixtures load this file too, as CommonJS (no import.meta),
// hence relative imports and the root taken from the working directory:
// Vitest, Playwright and npm scripts all run from the project's root.

const ROOT = process.cwd();

export type CliName = "token" | "user" | "webhook" | "activity" | "db:migrate" | "db" | "worker";
export type CliRun = { code: number; stdout: string; stderr: string };

/** Node's arguments in `npm run <name>`'s script, `exec node <arguments>` (as the start script is). */
export function cliCommand(name: CliName): string[] {
  const script = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string | undefined> }).scripts[name];
  const [, argumentsText] = /^exec node (.+)$/.exec(script ?? "") ?? [];
  if (argumentsText === undefined) throw new Error(`package.json's ${name} script is not "exec node <arguments>": ${script}`);
  return argumentsText.split(" ");
}

/** Runs `npm run <name> -- <args>`'s command; never throws, the exit code is part of the answer. */
export function runCli(name: CliName, args: string[], options: { database: Pick<TestDatabase, "env">; env?: Partial<NodeJS.ProcessEnv>; stdin?: string }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...cliCommand(name), ...args],
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

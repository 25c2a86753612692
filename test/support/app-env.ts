import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestDatabase } from "./test-database";

// The command `npm start` runs, read from package.json so that the tests and
// Playwright start the server exactly so, node's flags included (the heap
// limit; tsx loaded into the server's own process, since tsx's CLI would run
// it as a child and SIGKILL it when it does not acknowledge a signal within
// 30 ms, cutting a graceful shutdown short). Tests run from the project's root
// (Playwright loads this file as CommonJS, where import.meta is not available).
const startScript = (root: string) => (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
export const START_SCRIPT = startScript(path.resolve("."));

/**
 * Node's arguments in the start script, which is `exec node <arguments>`: the
 * shell npm runs it with becomes node, so that npm's signals reach the server.
 * `root`: another checkout, whose own script starts its own build (a bench
 * comparing builds, where the server's file may differ).
 */
export function startScriptArguments(root?: string): string[] {
  const script = root === undefined ? START_SCRIPT : startScript(root);
  const [, argumentsText] = /^exec node (.+)$/.exec(script) ?? [];
  if (argumentsText === undefined) throw new Error(`package.json's start script is not "exec node <arguments>": ${script}`);
  return argumentsText.split(" ");
}

// The server's clocks for its clients in the tests' apps, the browser specs' too (and a worker
// process's webhook attempt),
// lengthened unless a test sets its own (issue 31): a loaded machine delays the server as much as the
// client, and the server blames the client.
// - Idle connections kept ten minutes, not 5 s: a kept-alive connection the server closes just as the
//   test's next request goes out is reset (ECONNRESET), a race any HTTP client may meet.
// - Headers and whole requests given minutes, not 10 and 30 s: a worker whose event loop a loaded
//   machine held up (loading Next.js, say) checked the time before it read what had long arrived,
//   and answered 408 to a request sent in one piece.
// - A webhook attempt given two minutes, not 15 s, and so its claim 130 s: a worker that a loaded machine
//   held up past its claim saw another worker send the same delivery again (at least once, as
//   docs/webhooks.md promises, where these tests count each delivery exactly once).
// - A graceful stop given two minutes to drain, not 10 s: at a load average of 30, a worker answering
//   its last requests passed the deadline, cut them and exited 1 (issue 44, workers-primary.test.ts).
export const SLOW_MACHINE_CLOCKS = {
  KEEP_ALIVE_TIMEOUT_MS: "600000",
  HEADERS_TIMEOUT_MS: "120000",
  REQUEST_TIMEOUT_MS: "240000",
  WEBHOOK_TIMEOUT_MS: "120000",
  SHUTDOWN_TIMEOUT_MS: "120000",
};

// The environment of an app or CLI process under test: production mode, and
// everything taken from the test database (its data directory, its URL and,
// with PostgreSQL, its secrets), whatever the developer's own shell has set.
// Partial: Next's types make NODE_ENV required in ProcessEnv, and overrides need not set it.
export function appEnv(database: Pick<TestDatabase, "env">, extra: Partial<NodeJS.ProcessEnv> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXTAUTH_SECRET: "",
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "",
    // One server process unless a test asks for workers (WEB_CONCURRENCY=2): the suite starts
    // dozens of apps on two cores, and `auto` would fork one per core for each.
    WEB_CONCURRENCY: "1",
    ...database.env,
    ...extra,
  };
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { HANG_GUARD_MS } from "./test/support/hang-guard";
import { testReportFile } from "./test/support/test-reports";

// Under `npm test`, a JSON report beside the usual output, for the run's slowest tests.
const reportFile = testReportFile();

// Six projects: the unit tests (no build needed), the HTTP tests (against the
// built app) and the CLI tests (against the built CLIs), each on SQLite and on
// PostgreSQL. TEST_DATABASE picks the engine for lib/, the CLIs and the apps a
// test starts; TEST_POSTGRES_URL the server (default: the local one, user postgres).
const UNIT = ["lib/**/*.test.ts"];
// The unit files that set up a test database run on both engines; the rest check code that no engine
// reaches (parsing, formats, the browser's side, a stream's bookkeeping), and run once, in the SQLite
// project: on PostgreSQL they would check the same again (issue 44).
const DATABASE_UNITS = readdirSync("lib", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts") && !file.endsWith(".sqlite.test.ts"))
  .map((file) => `lib/${file}`)
  .filter((file) => /@\/test\/support\/(set-up-test-database|test-database)"|@\/lib\/db\//.test(readFileSync(file, "utf8")));
// The operator CLIs as `npm run <name>` runs them: after `npm run build`, the
// compiled ones (issue 20).
const CLI = ["cli/**/*.test.ts"];
const HTTP = ["test/http/**/*.test.ts"];
// HTTP files about the server process and the browser's side, not the data: signals and stops, ports and
// processes, configuration at start, what the server answers before anything is read, headers, what a log
// leaves out, the API reference, a staff page reconnecting its stream. Whatever data they pass through is
// checked on both engines by the other files: they run once, on SQLite, the default (issue 44).
const ENGINE_FREE_HTTP = [
  "browser-guards",
  "docs-in-browser",
  "live-reconnect",
  "one-machine-instances",
  "openapi-json-and-docs",
  "second-factor-logs",
  "server-answers",
  "single-sign-on-unavailable",
  "startup",
  "stop-under-supervisor",
  "workers-start",
].map((name) => `test/http/${name}.test.ts`);
const POSTGRES = { env: { TEST_DATABASE: "postgresql" }, globalSetup: ["test/support/postgres-global-setup.ts"] };
// One built app per engine that the HTTP files share (test/support/shared-app.ts);
// after postgres-global-setup.ts, which fixes the run's database name prefix.
const SHARED_APP = "test/support/shared-app-global-setup.ts";
// The CLI and HTTP files test processes of their own and stub nothing in their
// worker: they need no fresh module registry each, which cost a third of a
// second per file under the suite's load.
const SHARED_MODULES = { isolate: false };
// The unit files share their worker processes too, each file starting from fresh modules and none of
// the per-process state they keep (test/support/fresh-modules.ts): a process per file was two thirds of
// their CPU, most of it loading the same packages again (issue 44: npm run test:unit 158 CPU s, 49 so).
const FRESH_MODULES = { isolate: false, setupFiles: ["test/support/fresh-modules.ts"] };
// A failed test prints what its apps logged as trouble (test/support/app-failures.ts).
const APP_FAILURES = ["test/support/app-failures.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Timeouts guard against hangs, never against a slow machine (issue 31): a test, a hook and an
    // expect.poll each wait minutes for what a server, a browser or a worker does in its own time.
    testTimeout: 2 * HANG_GUARD_MS,
    hookTimeout: 2 * HANG_GUARD_MS,
    expect: { poll: { timeout: HANG_GUARD_MS } },
    reporters: reportFile ? ["default", ["json", { outputFile: reportFile }]] : ["default"],
    // How many files run at once is each npm script's --maxWorkers (package.json), not set here: a
    // project copies the root's value, which then overrides the command line's. Two for the unit and
    // CLI tests (two cores); five for the HTTP tests, whose files mostly wait (shutdown delays, backup
    // intervals, workers starting): at four they were a quiet run's longest stage, 769 s of which they
    // used 392 CPU seconds, the whole run 1.24 of the two cores (at six, on a slow day, they loaded the
    // machine to a load average of 40: docs/development.md). One when none is given (`npx vitest run <file>`).
    // A test file's process lives seconds, and Prisma's query compiler is WebAssembly that V8 would
    // recompile with TurboFan once it runs hot: CPU a short process never earns back (as for the CLIs,
    // cli/launch.mjs). The unit tests took 0.78 of their CPU seconds without it, measured side by side.
    execArgv: ["--wasm-tiering-budget=1000000000"],
    projects: [
      // *.postgres.test.ts need both engines: they run in the PostgreSQL project only; *.sqlite.test.ts
      // are about SQLite's file and its locks, and run in the SQLite project only.
      { extends: true, test: { name: "unit", include: [...UNIT, "test/*.test.ts"], exclude: ["**/*.postgres.test.ts", "**/node_modules/**"], env: { TEST_DATABASE: "sqlite" }, ...FRESH_MODULES } },
      { extends: true, test: { name: "unit-postgres", include: DATABASE_UNITS, ...POSTGRES, ...FRESH_MODULES } },
      { extends: true, test: { name: "cli", include: CLI, env: { TEST_DATABASE: "sqlite" }, setupFiles: APP_FAILURES, ...SHARED_MODULES } },
      { extends: true, test: { name: "cli-postgres", include: CLI, ...POSTGRES, setupFiles: APP_FAILURES, ...SHARED_MODULES } },
      { extends: true, test: { name: "http", include: HTTP, env: { TEST_DATABASE: "sqlite" }, globalSetup: [SHARED_APP], setupFiles: APP_FAILURES, ...SHARED_MODULES } },
      // Several instances as one service is a PostgreSQL deployment: test/instances runs there only.
      {
        extends: true,
        test: {
          name: "http-postgres",
          include: [...HTTP, "test/instances/**/*.test.ts"],
          exclude: ["**/*.sqlite.test.ts", ...ENGINE_FREE_HTTP, "**/node_modules/**"],
          ...POSTGRES,
          globalSetup: [...POSTGRES.globalSetup, SHARED_APP],
          setupFiles: APP_FAILURES,
          ...SHARED_MODULES,
        },
      },
    ],
  },
});

import { execFileSync } from "node:child_process";
import path from "node:path";
import { defineConfig, devices, type Project } from "@playwright/test";
import type { E2eDatabase } from "./test/support/e2e-databases";
import { appEnv, SLOW_MACHINE_CLOCKS, START_SCRIPT } from "./test/support/app-env";
import { chromiumPath } from "./test/support/chromium";
import { HANG_GUARD_MS } from "./test/support/hang-guard";
import { testReportFile } from "./test/support/test-reports";

// End-to-end runs against the BUILT app (`npm run build` first; `npm test`
// does): Playwright starts two apps on SQLite and one on PostgreSQL, each on a
// free port with a fresh database, so the first-run owner setup always meets
// an empty one, in three lanes (LANE_SPECS). `--project sqlite --project sqlite-2`
// runs SQLite's specs alone, `--project postgresql` PostgreSQL's.
//
// Test settings are read from the environment here, not through lib/server/env.ts:
//   PLAYWRIGHT_CHROMIUM_PATH  the Chromium to drive (default: Debian's headless shell, else /usr/bin/chromium)
//   TEST_POSTGRES_URL         the PostgreSQL server to make the database on (default: local, user postgres)

const chromium = chromiumPath();
const reportFile = testReportFile();

// Playwright loads this file again in every worker process; the databases are
// made once, in the runner (a child process, as this file must load
// synchronously), and handed down through the environment.
process.env.E2E_DATABASES ||= execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "test/support/e2e-databases.ts"], { encoding: "utf8" });
const databases = JSON.parse(process.env.E2E_DATABASES) as E2eDatabase[];

// A page's markup and behaviour do not depend on the engine: the data a page shows comes through lib/
// functions that the unit tests run on both engines, as the HTTP tests run every operation on both. So
// the specs run on SQLite, the default, and PostgreSQL's lane runs only what PostgreSQL alone shows (the
// Backups page's pointer to pg_dump); issue 44 ended the repeats of specs whose data or transactions
// are engine-specific, which the lower levels already prove on both. SQLite's specs are split in two
// lanes: one server process, and two workers behind a primary, as npm start runs on a machine of several
// cores. Specs whose pages work differently with several processes run in the second: a change made
// through one worker reaches a page whose stream another holds through the primary (lib/live/cluster-wake.ts),
// and the scheduled backups run in the primary, which the workers reach over the cluster's channel
// (lib/backup/backup-schedule-link.ts); the one process's side of both is the HTTP tests'
// (test/http/change-feed*.test.ts, scheduled-backups*.sqlite.test.ts). The lanes are of about equal
// length, as measured in a whole run. second-factor-policy.spec.ts leaves a second active owner behind:
// it stays out of team-page.spec.ts's lane, whose refusals need the set-up owner to be the only one.
const SQLITE_SECOND_LANE = [
  "accessibility.spec.ts",
  "sign-in.spec.ts",
  "api-tokens.spec.ts",
  "long-values-fit.spec.ts",
  "team-page.spec.ts",
  "passkeys.spec.ts",
  "account-page.spec.ts",
  "api-reference.spec.ts",
  "backups-page.spec.ts",
  "live-updates.spec.ts",
];
// Specs of what only PostgreSQL shows (the Backups page's pointer to pg_dump); SQLite's own are the SQLite lanes' alone.
const POSTGRESQL_ONLY = ["backups-page-postgres.spec.ts"];
const LANE_SPECS: Record<E2eDatabase["lane"], Pick<Project, "testMatch" | "testIgnore">> = {
  "sqlite-2": { testMatch: SQLITE_SECOND_LANE },
  sqlite: { testIgnore: [...SQLITE_SECOND_LANE, ...POSTGRESQL_ONLY] },
  postgresql: { testMatch: POSTGRESQL_ONLY },
};

const ownerState = (database: E2eDatabase) => path.join(database.dataDir, "owner-storage-state.json");

export default defineConfig({
  testDir: "e2e",
  // The lanes run side by side, each in one worker: the specs of a lane share
  // one app and database, and one worker keeps their order fixed.
  workers: databases.length,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Timeouts guard against hangs, never against a slow machine (issue 31): minutes for a test (the API
  // reference opened and tried out under axe took over 6 on a machine loaded many times over), a minute
  // for one expectation to come true.
  timeout: 4 * HANG_GUARD_MS,
  expect: { timeout: HANG_GUARD_MS / 3 },
  outputDir: "test-results",
  // Under `npm test`, a JSON report too, for the run's slowest tests.
  reporter: [["list"], ...(process.env.CI ? [["html", { open: "never" }] as const] : []), ...(reportFile ? [["json", { outputFile: reportFile }] as const] : [])],
  globalTeardown: "./test/support/e2e-teardown.ts",
  use: {
    // Off: recording a trace of every test to keep the failed ones cost about 15 %
    // of the browser lanes' CPU here (30 to 31 s against 26 s for the
    // accessibility specs). To see a failure step by step, run the spec again
    // with `npx playwright test <spec> --trace=on`.
    trace: "off",
    screenshot: "only-on-failure",
    // The app's service worker (lib/client/offline/service-worker.ts) is offline.spec.ts's, which allows it. In
    // the other specs each test's fresh context installed it again, and it fetched and kept the offline page and
    // its files beside the test: the SQLite lane took 0.82 to 0.97 of its CPU seconds without it (issue 44).
    serviceWorkers: "block",
    launchOptions: { executablePath: chromium },
  },
  projects: databases.flatMap((database): Project[] => {
    const use = { ...devices["Desktop Chrome"], baseURL: database.baseURL, database };
    return [
      // First run: creates the owner and saves the signed-in state for the rest.
      { name: `setup ${database.lane}`, testMatch: "owner-setup.setup.ts", use },
      {
        name: database.lane,
        dependencies: [`setup ${database.lane}`],
        workers: 1,
        ...LANE_SPECS[database.lane],
        use: { ...use, storageState: ownerState(database) },
      },
    ];
  }),
  webServer: databases.map((database) => ({
    command: START_SCRIPT,
    url: `${database.baseURL}/sign-in`,
    reuseExistingServer: !process.env.CI,
    timeout: HANG_GUARD_MS,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: definedOnly(
      appEnv(database, {
        HOST: "127.0.0.1",
        PORT: new URL(database.baseURL).port,
        METRICS_PORT: "off",
        // As the HTTP tests' apps: page.request's next call on a kept-alive connection the server had just closed (5 s idle) was reset.
        ...SLOW_MACHINE_CLOCKS,
        NEXTAUTH_URL: "",
        LOG_LEVEL: "warn",
        // The specs' webhook endpoints are on 127.0.0.1: allowed here, never on a public deployment.
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      }),
    ),
  })),
});

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// End-to-end runs against the BUILT app (`npm run build` first; `npm test`
// does), started by Playwright on a free port with a throwaway data directory,
// so the first-run owner setup always meets an empty database.
//
// Test settings are read from the environment here, not through lib/env.ts:
//   PLAYWRIGHT_CHROMIUM_PATH  the Chromium to drive (default /usr/bin/chromium)
//   E2E_PORT, E2E_DATA_DIR    fixed port and data directory (default: fresh ones)

const chromium = process.env.PLAYWRIGHT_CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(chromium)) {
  throw new Error(
    `No Chromium at ${chromium}. Install Debian's (sudo apt-get install chromium) ` +
      "or point PLAYWRIGHT_CHROMIUM_PATH at a Chromium or Chrome binary.",
  );
}

// Playwright loads this file again in every worker process; the values are
// chosen once, in the runner, and handed down through the environment.
process.env.E2E_PORT ||= freePort();
process.env.E2E_DATA_DIR ||= mkdtempSync(path.join(tmpdir(), "plant-store-e2e-"));
const port = process.env.E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;


export default defineConfig({
  testDir: "e2e",
  // The specs share one app and database: one worker keeps the order fixed.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: chromium },
  },
  projects: [
    // First run: creates the owner and saves the signed-in state for the rest.
    { name: "setup", testMatch: "owner-setup.setup.ts", use: { ...devices["Desktop Chrome"] } },
    {
      name: "chromium",
      dependencies: ["setup"],
      use: { ...devices["Desktop Chrome"], storageState: path.join(process.env.E2E_DATA_DIR, "owner-storage-state.json") },
    },
  ],
  webServer: {
    command: `node node_modules/next/dist/bin/next start -H 127.0.0.1 -p ${port}`,
    url: `${baseURL}/sign-in`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: "",
      NEXTAUTH_SECRET: "",
      NEXTAUTH_URL: "",
      LOG_LEVEL: "warn",
    },
  },
});

/** A port nobody listens on now; asked of the OS in a child, since this file must load synchronously. */
function freePort(): string {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
}

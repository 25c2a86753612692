// Run by playwright.config.ts (in the runner only): a fresh database and a
// free port for each app the browser runs drive, one per lane (a Playwright
// project with one worker: two on SQLite, one on PostgreSQL), printed as JSON
// for the config to hand to its workers through the environment.
import path from "node:path";
import { freePort } from "@/test/support/app-server";
import { makeTestDatabase } from "@/test/support/test-database";

/** The lanes, each its own app and database; playwright.config.ts says which specs each runs. */
// sqlite-2 and postgresql run their app as npm start does on a machine of several cores, with two
// workers (issue 25): the staff app's every page and action, served by whichever worker a connection
// reaches. sqlite keeps one server process, as WEB_CONCURRENCY=1 runs it.
export const E2E_LANES = [
  { lane: "sqlite", provider: "sqlite", workers: 1 },
  { lane: "sqlite-2", provider: "sqlite", workers: 2 },
  { lane: "postgresql", provider: "postgresql", workers: 2 },
] as const;

export type E2eDatabase = {
  lane: (typeof E2E_LANES)[number]["lane"];
  provider: "sqlite" | "postgresql";
  dataDir: string;
  env: Record<string, string>;
  baseURL: string;
};

async function main(): Promise<void> {
  const databases: E2eDatabase[] = [];
  for (const { lane, provider, workers } of E2E_LANES) {
    const { dataDir, env } = await makeTestDatabase(provider);
    // Scheduled backups on SQLite, an hour apart by default: the first at start, the rest by the Backups
    // page's "Back up now" (e2e/backups-page.spec.ts). PostgreSQL refuses BACKUP_DIR.
    const backups: Record<string, string> = provider === "sqlite" ? { BACKUP_DIR: path.join(dataDir, "backups") } : {};
    databases.push({ lane, provider, dataDir, env: { ...env, ...backups, WEB_CONCURRENCY: String(workers) }, baseURL: `http://127.0.0.1:${await freePort()}` });
  }
  process.stdout.write(JSON.stringify(databases));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

// Run by playwright.config.ts (in the runner only): a fresh database and a
// free port for each app the browser runs drive, one per engine, printed as
// JSON for the config to hand to its workers through the environment.
import { freePort } from "@/test/support/app-server";
import { makeTestDatabase } from "@/test/support/test-database";

export type E2eDatabase = {
  provider: "sqlite" | "postgresql";
  dataDir: string;
  env: Record<string, string>;
  baseURL: string;
};

async function main(): Promise<void> {
  const databases: E2eDatabase[] = [];
  for (const provider of ["sqlite", "postgresql"] as const) {
    const { dataDir, env } = await makeTestDatabase(provider);
    databases.push({ provider, dataDir, env, baseURL: `http://127.0.0.1:${await freePort()}` });
  }
  process.stdout.write(JSON.stringify(databases));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

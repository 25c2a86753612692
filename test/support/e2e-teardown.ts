import { rmSync } from "node:fs";
import type { E2eDatabase } from "./e2e-databases";
import { dropPostgresDatabase } from "./test-database";

// Playwright's global teardown: the databases and data directories of the run go.
export default async function teardown(): Promise<void> {
  const databases = JSON.parse(process.env.E2E_DATABASES ?? "[]") as E2eDatabase[];
  for (const database of databases) {
    if (database.provider === "postgresql") await dropPostgresDatabase(new URL(database.env.DATABASE_URL!).pathname.slice(1));
    rmSync(database.dataDir, { recursive: true, force: true });
  }
}

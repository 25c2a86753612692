import { describe, expect, it } from "vitest";
import { listMigrations } from "@/lib/db/migrations";
import { freePort } from "@/test/support/app-server";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { testDatabaseProvider } from "@/test/support/test-database";

// npm run db:migrate, as processes of their own on a fresh database: what
// several instances (or an operator beside them) do at the same moment.

const freshDatabase = freshDatabases();

it("applies each migration once when several processes start at the same moment", async () => {
  const database = await freshDatabase();
  const runs = await Promise.all([1, 2, 3].map(() => runCli("db:migrate", [], { database })));
  expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
  const applied = await database.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY started_at');
  expect(applied.map((row) => row.migration_name)).toEqual(listMigrations(database.provider).map((migration) => migration.name));
});

describe.skipIf(testDatabaseProvider() !== "postgresql")("db:migrate on PostgreSQL", () => {
  it("names the server it cannot reach, with its password left out, and what to check", async () => {
    const database = await freshDatabase();
    // Free a moment ago, and nothing listens on it: the connection is refused.
    const port = await freePort();
    const run = await runCli("db:migrate", [], { database, env: { DATABASE_URL: `postgresql://plants:n3ver-printed@127.0.0.1:${port}/plant_store` } });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      `db:migrate: cannot connect to PostgreSQL at postgresql://plants:<password>@127.0.0.1:${port}/plant_store: ` +
        `connection refused (connect ECONNREFUSED 127.0.0.1:${port}): is the server running, and listening on that host and port?\n`,
    );
  });
});

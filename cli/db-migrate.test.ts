import { expect, it } from "vitest";
import { listMigrations } from "@/lib/db/migrations";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";

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

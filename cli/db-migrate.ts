// npm run db:migrate: applies pending migrations to the configured database.
// The server does the same on start; this is for operators who want it first.
import { runCli } from "@/cli/run-cli";
import { describeDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/db/migrate";
import { env } from "@/lib/server/env";

runCli("db:migrate", "usage: db:migrate (no arguments)", async () => {
  const { database } = env();
  const applied = await migrate(database);
  const where = describeDatabase(database);
  process.stdout.write(applied.length ? `applied ${applied.join(", ")} to ${where}\n` : `${where} is up to date\n`);
});

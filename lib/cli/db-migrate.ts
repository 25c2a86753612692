// npm run db:migrate: applies pending migrations to the configured database.
// The server does the same on start; this is for operators who want it first.
import { env } from "@/lib/env";
import { migrate } from "@/lib/migrate";

const { databasePath } = env();
const applied = migrate(databasePath);
console.log(applied.length ? `applied ${applied.join(", ")} to ${databasePath}` : `${databasePath} is up to date`);

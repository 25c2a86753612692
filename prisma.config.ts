import { defineConfig } from "prisma/config";
import { DATABASE_URL_RULE, DEFAULT_DATA_DIR, parseDatabaseUrl, PRISMA_FOLDERS } from "./lib/db/database-url";

// Used by the Prisma CLI only (the app applies migrations itself, at start and
// with npm run db:migrate). It picks the schema and migrations of the database
// DATABASE_URL names, as the app does, so on a machine where the CLI can run,
// `DATABASE_URL=... npx prisma migrate status` reads the same history.
const database = parseDatabaseUrl(process.env.DATABASE_URL || undefined, process.env.DATA_DIR || DEFAULT_DATA_DIR);
if (!database) throw new Error(`DATABASE_URL ${DATABASE_URL_RULE}`);
const folder = PRISMA_FOLDERS[database.provider];

export default defineConfig({
  schema: `${folder}/schema.prisma`,
  migrations: { path: `${folder}/migrations` },
  datasource: { url: database.provider === "sqlite" ? `file:${database.path}` : database.url },
});

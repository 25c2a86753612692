// Generates a Prisma client per database after every install:
// prisma/sqlite/schema.prisma -> lib/generated/sqlite and
// prisma/postgres/schema.prisma -> lib/generated/postgres. Prisma ties a
// generated client to one provider, so the app needs both to choose at start.
//
// Generation runs in WebAssembly, but the Prisma CLI first fetches a schema
// engine binary, which fails offline. Naming any existing file as that binary
// skips the fetch; this command never runs the engine, so node itself serves.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// Generation needs no database: whatever DATABASE_URL the shell holds is not read.
const env = { ...process.env, CHECKPOINT_DISABLE: "1", DATABASE_URL: "" };
env.PRISMA_SCHEMA_ENGINE_BINARY ||= process.execPath;

const cli = require.resolve("prisma/build/index.js");
for (const schema of ["prisma/sqlite/schema.prisma", "prisma/postgres/schema.prisma"]) {
  const result = spawnSync(process.execPath, [cli, "generate", "--schema", schema], { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Generates the Prisma client (lib/generated/prisma) after every install.
// Generation runs in WebAssembly, but the Prisma CLI first fetches a schema
// engine binary, which fails offline. Naming any existing file as that binary
// skips the fetch; this command never runs the engine, so node itself serves.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = { ...process.env, CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ||= process.execPath;

const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);

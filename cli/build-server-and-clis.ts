// The last step of `npm run build`: what Node runs outside Next's own build,
// compiled to plain JavaScript once, so that it runs with Node alone:
// - the production server (server.ts and the lib/ modules it runs), as one
//   CommonJS file, .next/plant-store-server/server.cjs, which `npm start` runs.
//   Run under tsx instead, the server carried tsx's module loader for its whole
//   life: a thread of its own and about 35 MB of resident memory (measured,
//   issue 12). server.ts loads the rest with import(), after it has set
//   NODE_ENV: esbuild keeps each such module's code unrun until then, so Next
//   and React still load after it. CommonJS because the packages it loads are
//   (Next.js above all): imported from an ES module, Node reads each one twice
//   more, to tell its format and to find its named exports, before it compiles
//   it; required, it compiles it once. Measured with npm run bench:startup
//   against the same code built as ES modules: the one process answered its
//   first /readyz after 0.92 of the CPU time, two workers after 0.89, and
//   listened after 0.58 and 0.61 (docs/operations.md).
// - the operator CLIs, each one CommonJS file, .next/plant-store-cli/<name>.cjs,
//   which cli/launch.mjs runs for `npm run token` and the others. Through tsx's
//   CLI, each call also paid for a second Node process and the TypeScript
//   loader: about 1.3 s of CPU for `token list`, where the compiled CLI takes
//   about 0.9 s (issue 20). CommonJS for the server's reason: as ES modules
//   importing the packages, a usage error took 0.75 CPU s and `token list`
//   0.85, much of it Node telling each CommonJS package's named exports;
//   required, 0.48 and 0.69 (side by side, issue 44). The suite runs the
//   CLIs some 400 times.
// Packages stay outside the bundles, loaded from node_modules as Next loads
// them, and the `@/` paths resolve as tsconfig.json says.
import path from "node:path";
import { build, type BuildOptions } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Each is cli/<name>.ts; cli/launch.mjs runs the compiled one by the same name. */
const CLIS = ["token", "user", "webhook", "activity", "webhook-worker", "db-migrate", "db"];

const FOR_NODE: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  packages: "external",
  tsconfig: path.join(ROOT, "tsconfig.json"),
  // Read only under NODE_OPTIONS=--enable-source-maps.
  sourcemap: true,
  logLevel: "warning",
};

// CommonJS, for the packages' sake (above), with import.meta made CommonJS's: the modules that resolve a
// package from where they are (the SQLite worker threads, Prisma's generated clients) get the file's URL.
const AS_COMMONJS: BuildOptions = {
  ...FOR_NODE,
  format: "cjs",
  define: { "import.meta.url": "importMetaUrl" },
  // Strict, as the ES modules were: a directive counts only at the very top.
  banner: { js: '"use strict";\nconst importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};

const SERVER: BuildOptions = {
  ...AS_COMMONJS,
  entryPoints: [path.join(ROOT, "server.ts")],
  outfile: path.join(ROOT, ".next/plant-store-server/server.cjs"),
};

// One file per CLI, each with all of its code (CommonJS has no shared chunks): what a CLI loads with
// import() (the PostgreSQL client on SQLite, say) is still only run when needed.
const CLI_BUILDS: BuildOptions[] = CLIS.map((name) => ({
  ...AS_COMMONJS,
  entryPoints: [path.join(ROOT, "cli", `${name}.ts`)],
  outfile: path.join(ROOT, ".next/plant-store-cli", `${name}.cjs`),
}));

async function main(): Promise<void> {
  await Promise.all([SERVER, ...CLI_BUILDS].map((options) => build(options)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// The last step of `npm run build`: what Node runs outside Next's own build,
// compiled to plain JavaScript once, so that it runs with Node alone:
// - the production server (server.ts and the lib/ modules it runs), in
//   .next/plant-store-server/, which `npm start` runs. Run under tsx instead,
//   the server carried tsx's module loader for its whole life: a thread of its
//   own and about 35 MB of resident memory (measured, issue 12). server.ts
//   loads the rest with import(), after it has set NODE_ENV: each becomes a
//   chunk of its own, so Next and React still load after it.
// - the operator CLIs, in .next/plant-store-cli/<name>.mjs, which cli/launch.mjs
//   runs for `npm run token` and the others. Through tsx's CLI, each call also
//   paid for a second Node process and the TypeScript loader: about 1.3 s of
//   CPU for `token list`, where the compiled CLI takes about 0.9 s (issue 20).
// Packages stay outside the bundles, loaded from node_modules as Next loads
// them, and the `@/` paths resolve as tsconfig.json says.
import path from "node:path";
import { build, type BuildOptions } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Each is cli/<name>.ts; cli/launch.mjs runs the compiled one by the same name. */
const CLIS = ["token", "user", "webhook", "activity", "webhook-worker", "db-migrate", "db"];

const FOR_NODE: BuildOptions = {
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // Code the entry points share, and what they load with import() (the
  // PostgreSQL client on SQLite, say), goes into chunks loaded only when needed.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  tsconfig: path.join(ROOT, "tsconfig.json"),
  // Read only under NODE_OPTIONS=--enable-source-maps.
  sourcemap: true,
  logLevel: "warning",
};

async function main(): Promise<void> {
  await Promise.all([
    build({ ...FOR_NODE, entryPoints: [path.join(ROOT, "server.ts")], outdir: path.join(ROOT, ".next/plant-store-server") }),
    build({ ...FOR_NODE, entryPoints: CLIS.map((name) => path.join(ROOT, "cli", `${name}.ts`)), outdir: path.join(ROOT, ".next/plant-store-cli") }),
  ]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

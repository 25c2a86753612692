// The last step of `npm run build`: the production server (server.ts and the
// lib/ modules it runs) compiled to plain JavaScript in .next/plant-store-server/,
// which `npm start` runs with Node alone. Run under tsx instead, the server
// carried tsx's module loader for its whole life: a thread of its own and
// about 35 MB of resident memory (measured, issue 12), for code that never
// changes once built. Packages stay outside the bundle, loaded from
// node_modules as Next loads them, and the `@/` paths resolve as tsconfig.json
// says. server.ts loads the rest with import(), after it has set NODE_ENV:
// each becomes a chunk of its own, so Next and React still load after it.
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
export const SERVER_BUILD_DIR = path.join(ROOT, ".next/plant-store-server");

async function main(): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, "server.ts")],
    outdir: SERVER_BUILD_DIR,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    // Read only under NODE_OPTIONS=--enable-source-maps.
    sourcemap: true,
    logLevel: "warning",
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

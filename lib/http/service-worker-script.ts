import path from "node:path";

// GET /sw.js: the app's service worker (lib/client/offline/service-worker.ts),
// bundled by esbuild into one classic script, as a worker must be. The route
// is static, so this runs once, in `next build`, and the answer is served
// from the build thereafter: no bundler at run time. Serwist's Turbopack
// integration works the same way; a hand-written worker needs none of the
// rest of it (see docs/staff-app.md, "Offline").

const ENTRY = "lib/client/offline/service-worker.ts";
const TSCONFIG = "lib/client/offline/tsconfig.service-worker.json";

export async function serviceWorkerResponse(): Promise<Response> {
  // Loaded only here, in the build: esbuild is a build tool (serverExternalPackages keeps it out of the bundle).
  const { build } = await import("esbuild");
  const root = process.cwd();
  const result = await build({
    entryPoints: [path.join(/* turbopackIgnore: true */ root, ENTRY)],
    tsconfig: path.join(/* turbopackIgnore: true */ root, TSCONFIG),
    bundle: true,
    write: false,
    format: "iife",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  const script = result.outputFiles[0]?.text;
  if (!script) throw new Error(`esbuild made nothing of ${ENTRY}`);
  return new Response(script, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      // Browsers check for a new worker on every navigation; never let a cache answer for it.
      // (Its CSP is set by the server: lib/http/security-headers.ts.)
      "cache-control": "no-cache",
    },
  });
}

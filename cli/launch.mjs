// npm run token|user|webhook|activity|worker|db|db:migrate (`exec node cli/launch.mjs <name> ...`):
// runs the operator CLI as `npm run build` compiled it, .next/plant-store-cli/<name>.cjs,
// with Node alone; before a build, cli/<name>.ts through tsx. Plain JavaScript,
// so that choosing costs no compiler (issue 20).
//
// Either way the CLI runs in this same process, as `node --import tsx` ran it
// before: the same arguments, stdin, stdout, stderr and exit code, and the
// signals npm forwards reach the worker itself (tsx's own CLI would run it as a
// child and SIGKILL it when it did not stop within 30 ms of a signal).
//
// A build is run as it stands, even when the sources have changed since: it is
// what `npm start` runs too, and a CLI newer than the server beside it would
// migrate the database ahead of that server. Rebuild to run changed sources.
//
// Paths are taken from the working directory, which npm sets to the project's
// root for every script, as the CLIs' own DATA_DIR and migrations are.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";

// Prisma runs its query compiler as WebAssembly, and V8 recompiles whatever
// runs hot in it with TurboFan: about 0.25 s of CPU that a command answering
// once never earns back (token list: 0.75 s of CPU with it, 0.5 s without,
// measured, issue 20). Short commands stay on V8's baseline compiler; the
// webhook worker runs for days, so its hot code is optimized as usual.
const LONG_RUNNING = new Set(["webhook-worker"]);

const [name = "", ...args] = process.argv.slice(2);
if (!/^[a-z][a-z-]*$/.test(name)) {
  process.stderr.write(`usage: node cli/launch.mjs <name> [arguments], to run cli/<name>.ts; got ${JSON.stringify(name)}\n`);
  process.exit(2);
}
if (!LONG_RUNNING.has(name)) v8.setFlagsFromString("--wasm-tiering-budget=1000000000");
const compiled = path.resolve(".next/plant-store-cli", `${name}.cjs`);
const built = existsSync(compiled);
const file = built ? compiled : path.resolve("cli", `${name}.ts`);
// The CLIs read their arguments from process.argv.slice(2), as if run directly.
process.argv = [process.argv[0] ?? process.execPath, file, ...args];
// The build is CommonJS, and required: imported, Node would first read it once more to find its named exports.
if (built) createRequire(import.meta.url)(file);
else {
  await import("tsx");
  await import(pathToFileURL(file).href);
}

import cluster from "node:cluster";
import path from "node:path";

// The framework's ceiling with workers (bench/scaling.ts, issue 25): `next
// start` in each of <workers> node:cluster workers. `next start` serves in its
// own process, so each worker's listen on the port is the primary's socket,
// which hands each new connection to the next worker, as the app's primary
// does (lib/server/cluster-primary.ts). Tells its parent "listening" (IPC)
// once every worker listens; SIGINT or SIGTERM is passed to every worker.
//   node bench/ceiling-cluster.mjs <workers> <next start's arguments ...>

const [workers, ...args] = process.argv.slice(2);
const count = Number(workers);
cluster.setupPrimary({ exec: path.resolve(import.meta.dirname, "../node_modules/next/dist/bin/next"), args: ["start", ...args] });

let listening = 0;
let alive = count;
let stopping = false;
function stop(signal) {
  stopping = true;
  for (const each of Object.values(cluster.workers ?? {})) each?.process.kill(signal);
}
cluster.on("listening", () => {
  if (++listening === count) process.send?.("listening");
});
cluster.on("exit", (worker, code, signal) => {
  // A worker that dies uninvited makes the measure a lie: stop, and the bench sees it.
  if (!stopping) {
    console.error(`a ceiling worker died (${signal ?? code}); stopping`);
    process.exitCode = 1;
    stop("SIGTERM");
  }
  if (--alive === 0) process.exit();
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => stop(signal));
// A bench that died leaves no ceiling behind.
process.once("disconnect", () => stop("SIGTERM"));
for (let place = 0; place < count; place++) cluster.fork();

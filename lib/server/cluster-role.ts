import cluster from "node:cluster";

// Where this process stands when `npm start` runs several (issue 25): the
// primary (lib/server/cluster-primary.ts) forks the workers that serve, and
// tells each its place, 0 to n-1, in PLANT_STORE_WORKER. The place outlives the
// process: a worker that dies is replaced in the same place. Place 0 runs the
// jobs the machine needs once, whatever the number of workers, that need the
// app (the activity retention) or are best beside the writes (the SQLite
// checkpoints); the scheduled backups, which need neither, run in the primary
// (lib/backup/backup-schedule-link.ts).

/**
 * A worker that served this long had started well; one that dies sooner may die again at once (a crash
 * at start, a database that refuses it), so the primary replaces it only after a pause
 * (lib/server/cluster-primary.ts). Here, not there, so that a bench can wait it out without loading the primary.
 */
export const SETTLED_MS = 10_000;

/** Set by the primary in each worker's environment; not configuration, so not in env.ts. */
export const WORKER_PLACE_VARIABLE = "PLANT_STORE_WORKER";

/** This worker's place, or undefined in a process that is no cluster worker (WEB_CONCURRENCY=1, the CLIs, the primary). */
export function workerPlace(): number | undefined {
  if (!cluster.isWorker) return undefined;
  const place = Number(process.env[WORKER_PLACE_VARIABLE]);
  return Number.isInteger(place) && place >= 0 ? place : undefined;
}

/** Whether this process is one of several serving workers. */
export function isClusterWorker(): boolean {
  return workerPlace() !== undefined;
}

/** Whether this process runs the once-a-machine jobs: the only server process, or worker 0 of several. */
export function runsMachineJobs(): boolean {
  const place = workerPlace();
  return place === undefined || place === 0;
}

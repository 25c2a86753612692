import cluster, { type Worker } from "node:cluster";

// SQLite with several workers (issue 25): a worker that committed plant
// changes tells the primary, which tells the other workers, so that their
// streams hear of it at once rather than at their feed's next look (a quarter
// of a second). A lost message loses nothing: the feeds read the table.

const WAKE = { plantStore: "plant-changes" } as const;

function isWake(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { plantStore?: unknown }).plantStore === WAKE.plantStore;
}

/** In a worker: tells the others, through the primary. */
export function tellOtherWorkers(): void {
  if (!cluster.isWorker || !process.connected) return;
  process.send?.(WAKE, undefined, undefined, () => {});
}

/** In a worker: calls `listener` when another worker committed changes; answers the function that stops it. */
export function onOtherWorkersChanges(listener: () => void): () => void {
  if (!cluster.isWorker) return () => {};
  const heard = (message: unknown) => isWake(message) && listener();
  process.on("message", heard);
  return () => process.off("message", heard);
}

/** In the primary: passes each worker's word on to the others. */
export function relayChangeWakes(): void {
  cluster.on("message", (from: Worker, message: unknown) => {
    if (!isWake(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send(WAKE, undefined, () => {});
    }
  });
}

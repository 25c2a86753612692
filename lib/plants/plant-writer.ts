import cluster, { type Worker } from "node:cluster";
import { openSqliteWriter, type WriteTimes } from "@/lib/db/sqlite";
import { type NewPlantInput, type StoreResult, storeNewPlantsNow } from "@/lib/plants/new-plants-now";
import { isClusterWorker } from "@/lib/server/cluster-role";
import { processGlobal } from "@/lib/server/process-global";

// One writer of new plants for every worker of a machine, on SQLite
// (issue 33). Each worker groups only the creates it answers; past the
// cores, each commit then carried a handful of plants, and the lock passed
// from process to process, each finding its cache stale and being switched
// out while it held the lock. So with several workers the cluster primary
// (lib/server/cluster-primary.ts) stores the workers' new plants on a
// connection of its own: a worker sends its group commit's plants, with
// their activity records made ready, over the cluster's channel; the
// primary writes what every worker sent while it wrote the last, in one
// synchronous step (lib/plants/new-plants-now.ts), and answers each worker
// its results. A 200 still follows the commit, as it did in the worker.
// Batches (POST /plants/batch), changes and deletes stay in the worker that
// answers them: SQLite's lock orders them with the primary's commits.
//
// If the primary dies, so do its workers (cluster ends a worker whose
// channel closes); a message that cannot be sent is an outage that changed
// nothing (503).

const STORE = "plant-store:plants:store";
const STORED = "plant-store:plants:stored";

/** Set by the primary in each worker's environment when it stores the workers' new plants. */
export const PLANT_WRITER_VARIABLE = "PLANT_STORE_PLANT_WRITER";

// Ids as decimal text and times as ISO text: the cluster's channel is JSON, which has no bigint.
type WireInput = { id: string; name: string; tag: string | null; record: string };
type WireResult = { stored: true } | { stored: false; row: { name: string; tag: string | null; version: number; createdAt: string } };
/** The commit's size and times, sent with the first answer of each commit only, so that each commit is counted once. */
export type CommitFigures = WriteTimes & { plants: number };
type StoreMessage = { type: typeof STORE; id: number; inputs: WireInput[] };
type StoredMessage =
  | { type: typeof STORED; id: number; createdAt: string; results: WireResult[]; commit?: CommitFigures }
  | { type: typeof STORED; id: number; error: { name: string; code?: string; message: string } };

const isMessage = <T extends { type: string }>(type: T["type"]) => (message: unknown): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;
const isStore = isMessage<StoreMessage>(STORE);
const isStored = isMessage<StoredMessage>(STORED);

// Plants a commit carries at most; what waits beyond goes in the next, at once.
const MAX_PLANTS_PER_COMMIT = 2_000;

/**
 * In the primary, after migrating and before forking: stores what the
 * workers send, one commit at a time; answers the environment to give each
 * worker and a close() for the end.
 */
export function storePlantsForWorkers(databasePath: string): { workerEnv: Record<string, string>; close(): void } {
  const writer = openSqliteWriter(databasePath);
  const waiting: { worker: Worker; message: StoreMessage }[] = [];
  let writing = false;

  async function flush(): Promise<void> {
    writing = true;
    let plants = 0;
    let taken = 0;
    while (taken < waiting.length && (taken === 0 || plants + waiting[taken]!.message.inputs.length <= MAX_PLANTS_PER_COMMIT)) plants += waiting[taken++]!.message.inputs.length;
    const batch = waiting.splice(0, taken);
    try {
      const inputs = batch.flatMap(({ message }) => message.inputs.map(fromWire));
      const createdAt = new Date();
      let times: WriteTimes | undefined;
      const results = await writer.writeNow((write) => storeNewPlantsNow(write, inputs, createdAt), (measured) => (times = measured));
      let from = 0;
      batch.forEach(({ worker, message }, index) => {
        const mine = results.slice(from, (from += message.inputs.length));
        const commit = index === 0 && times ? { ...times, plants: inputs.length } : undefined;
        answer(worker, { type: STORED, id: message.id, createdAt: createdAt.toISOString(), results: mine.map(resultToWire), ...(commit && { commit }) });
      });
    } catch (error) {
      const { name, message, code } = error as Error & { code?: unknown };
      for (const each of batch) answer(each.worker, { type: STORED, id: each.message.id, error: { name, message, ...(typeof code === "string" && { code }) } });
    } finally {
      writing = false;
      if (waiting.length > 0) setImmediate(flush);
    }
  }

  const heard = (worker: Worker, message: unknown) => {
    if (!isStore(message)) return;
    waiting.push({ worker, message });
    // The plants sent in one turn of the event loop go together.
    if (!writing && waiting.length === 1) setImmediate(flush);
  };
  cluster.on("message", heard);
  return {
    workerEnv: { [PLANT_WRITER_VARIABLE]: "primary" },
    close() {
      cluster.off("message", heard);
      writer.close();
    },
  };
}

/** A worker that has gone hears nothing: its requests went with it. */
function answer(worker: Worker, message: StoredMessage): void {
  if (worker.isConnected()) worker.send(message, undefined, () => {});
}

const fromWire = ({ id, name, tag, record }: WireInput): NewPlantInput => ({ plant: tag === null ? { id: BigInt(id), name } : { id: BigInt(id), name, tag }, record });

const resultToWire = (result: StoreResult): WireResult =>
  result.stored ? result : { stored: false, row: { ...result.row, createdAt: result.row.createdAt.toISOString() } };

const resultFromWire = (result: WireResult): StoreResult =>
  result.stored ? result : { stored: false, row: { ...result.row, createdAt: new Date(result.row.createdAt) } };

/** In a worker: whether the primary stores new plants for it. */
export function primaryStoresPlants(): boolean {
  return isClusterWorker() && process.env[PLANT_WRITER_VARIABLE] === "primary";
}

type Waiting = { resolve: (stored: StoredThroughPrimary) => void; reject: (error: unknown) => void };
export type StoredThroughPrimary = { createdAt: Date; results: StoreResult[]; commit?: CommitFigures };

// Per process, not per copy of this module (lib/server/process-global.ts): ids must not repeat.
const link = () =>
  processGlobal("plant-writer.link", () => {
    const waiting = new Map<number, Waiting>();
    process.on("message", (message: unknown) => {
      if (!isStored(message)) return;
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (!waiter) return;
      if ("error" in message) waiter.reject(Object.assign(new Error(message.error.message), message.error));
      else waiter.resolve({ createdAt: new Date(message.createdAt), results: message.results.map(resultFromWire), commit: message.commit });
    });
    return { waiting, lastId: 0 };
  });

/** In a worker: has the primary store `inputs`; answers when they are committed, with one result each, in order. */
export function storeThroughPrimary(inputs: readonly NewPlantInput[]): Promise<StoredThroughPrimary> {
  const state = link();
  return new Promise((resolve, reject) => {
    const id = ++state.lastId;
    const message: StoreMessage = {
      type: STORE,
      id,
      inputs: inputs.map(({ plant, record }) => ({ id: plant.id.toString(), name: plant.name, tag: plant.tag ?? null, record })),
    };
    const unsent = (cause: unknown) => {
      state.waiting.delete(id);
      // Nothing reached the writer: nothing was changed (lib/db/database-outage.ts reads ECONNREFUSED as unreachable).
      reject(Object.assign(new Error("the cluster primary, which stores new plants, cannot be reached", { cause }), { code: "ECONNREFUSED" }));
    };
    if (!process.connected || !process.send) return unsent(undefined);
    state.waiting.set(id, { resolve, reject });
    process.send(message, undefined, undefined, (error) => error && unsent(error));
  });
}

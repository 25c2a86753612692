import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { WaitingPlant } from "@/lib/validations/waiting-plant";

// The IndexedDB database that keeps the waiting plants
// (lib/client/offline/waiting-plants.ts reads and writes them through their
// schema). Apart from that schema so that a page can ask whether any plant
// waits without loading zod: most pages, most of the time, have none, and
// load the rest only when one does (issue 20). Runs in the pages and in the
// service worker.

const DATABASE = "plant-store";
const VERSION = 1;
export const STORE = "waiting-plants";

export type StoredWaitingPlant = Omit<WaitingPlant, "seq"> & { seq?: number };

interface OfflineDatabase extends DBSchema {
  [STORE]: { key: number; value: StoredWaitingPlant };
}

let opened: Promise<IDBPDatabase<OfflineDatabase>> | undefined;

export function waitingPlantsDatabase(): Promise<IDBPDatabase<OfflineDatabase>> {
  opened ??= openDB<OfflineDatabase>(DATABASE, VERSION, {
    upgrade(db) {
      // Auto-increment keys keep the order plants were kept in, the order they are sent in.
      db.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
    },
    // A newer version of the app, open in another tab, wants to upgrade: let it, and open again when next asked.
    blocking() {
      const open = opened;
      opened = undefined;
      void open?.then((db) => db.close());
    },
    terminated() {
      opened = undefined;
    },
  });
  return opened;
}

/** How many records wait, readable or not (an older app's record is counted, though never sent). */
export async function countWaitingPlants(): Promise<number> {
  return (await waitingPlantsDatabase()).count(STORE);
}

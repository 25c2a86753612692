import { STORE, type StoredWaitingPlant, waitingPlantsDatabase as database } from "@/lib/client/offline/waiting-plants-database";
import { tellWaitingPlantsNews } from "@/lib/client/offline/waiting-plants-news";
import type { NewPlant } from "@/lib/validations/plant";
import { type WaitingPlant, type WaitingPlantProblem, waitingPlantSchema } from "@/lib/validations/waiting-plant";

// The plants waiting to be sent, kept in the browser's IndexedDB, which
// outlives reloads and browser restarts and is shared by the app's pages and
// its service worker (which sends them on Background Sync). Runs in both, so
// it uses nothing a worker lacks (no window, no document).

/** What sending needs of the waiting plants (lib/client/offline/send-waiting-plants.ts). */
export interface WaitingPlantStore {
  /** Every waiting plant, in the order they were kept. */
  list(): Promise<WaitingPlant[]>;
  remove(seq: number): Promise<void>;
  /** Marks a plant the app refused: it is not sent again until it is changed. */
  refuse(seq: number, problem: WaitingPlantProblem): Promise<void>;
}

// Every page and the service worker list the plants anew.
function changed(): void {
  tellWaitingPlantsNews({ kind: "changed" });
}

/** The waiting plants in IndexedDB. */
export const waitingPlants: WaitingPlantStore & {
  /** Keeps a plant to send later; with `seq`, in place of that waiting plant (changed by the person), whose refusal it forgets. */
  keep(plant: NewPlant, seq?: number): Promise<number>;
} = {
  async list() {
    const records = await (await database()).getAll(STORE);
    // A record this version cannot read (an older app's) is left where it is, not sent.
    return records.flatMap((record) => {
      const read = waitingPlantSchema.safeParse(record);
      return read.success ? [read.data] : [];
    });
  },

  async keep(plant, seq) {
    const record: StoredWaitingPlant = {
      ...(seq !== undefined && { seq }),
      plant: { id: plant.id.toString(), name: plant.name, ...(plant.tag !== undefined && { tag: plant.tag }) },
      keptAt: Date.now(),
    };
    const key = await (await database()).put(STORE, record);
    changed();
    return key;
  },

  async remove(seq) {
    await (await database()).delete(STORE, seq);
    changed();
  },

  async refuse(seq, problem) {
    const db = await database();
    const transaction = db.transaction(STORE, "readwrite");
    const record = await transaction.store.get(seq);
    // Discarded meanwhile (in another tab, say): nothing to mark.
    if (record) await transaction.store.put({ ...record, problem });
    await transaction.done;
    changed();
  },
};

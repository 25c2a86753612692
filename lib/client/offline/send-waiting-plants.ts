import type { WaitingPlantStore } from "@/lib/client/offline/waiting-plants";
import { tellWaitingPlantsNews } from "@/lib/client/offline/waiting-plants-news";
import { submitPlant } from "@/lib/client/plant-submission";
import { type NewPlant, newPlantSchema, type Plant } from "@/lib/validations/plant";
import type { WaitingPlant } from "@/lib/validations/waiting-plant";

// Sends the waiting plants, oldest first, each as the form would have sent
// it (POST /plants). Run when a page loads, when the browser comes back
// online, and on Background Sync in the service worker; any of them may run
// it any number of times, since creating a plant is idempotent: a plant whose
// answer was lost on the way is stored once however often it is sent, and
// comes back as already stored (Idempotent-Replayed), which counts as sent.

export type SendSummary = {
  /** The plants stored this time, in order, by the seq they waited under; `replayed` for those stored before (by an answer that was lost, or by another tab). */
  sent: { seq: number; plant: Plant; replayed: boolean }[];
  /** How many the app refused this time (400, 409): they stay, marked, for the person to fix or discard. */
  refused: number;
  /**
   * Why sending stopped before the end, if it did: nothing answered, the
   * session ended (the person must sign in again), or the server failed
   * (5xx, 429). Every plant not sent still waits, unmarked, for the next time.
   */
  stopped?: "unreachable" | "signed out" | "server";
};

/** The Background Sync tag the pages ask for (lib/client/offline/background-sync.ts) and the service worker answers. */
export const SEND_WAITING_PLANTS_TAG = "plant-store:send-waiting-plants";

// One sender at a time across the origin's pages and its service worker (Web Locks), so that two of
// them do not send the same plant at once: harmless to the data, but each would report it. A second
// sender waits its turn rather than giving up: the first may stop (its network not back yet, say)
// where the second would get through; it sends whatever is still waiting by then.
const SENDING_LOCK = "plant-store:send-waiting-plants";

export async function sendWaitingPlants(store: WaitingPlantStore, fetcher: typeof fetch = fetch): Promise<SendSummary> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) return sendAll(store, fetcher);
  return locks.request(SENDING_LOCK, () => sendAll(store, fetcher));
}

async function sendAll(store: WaitingPlantStore, fetcher: typeof fetch): Promise<SendSummary> {
  const summary: SendSummary = { sent: [], refused: 0 };
  for (const waiting of await store.list()) {
    // Refused before: waits for the person, not for the network.
    if (waiting.problem) continue;
    const plant = readPlant(waiting);
    if (!plant.ok) {
      await store.refuse(waiting.seq, { status: 400, fieldErrors: plant.fieldErrors });
      summary.refused++;
      continue;
    }
    const result = await submitPlant(plant.value, fetcher);
    if (result.ok) {
      await store.remove(waiting.seq);
      summary.sent.push({ seq: waiting.seq, plant: result.plant, replayed: result.replayed });
      continue;
    }
    if (result.reason === "unreachable") return { ...summary, stopped: "unreachable" };
    if (result.reason === "signed out") return { ...summary, stopped: "signed out" };
    if (result.status >= 500 || result.status === 429) return { ...summary, stopped: "server" };
    const { status, fieldErrors, formError } = result;
    await store.refuse(waiting.seq, { status, fieldErrors, ...(formError !== undefined && { formError }) });
    summary.refused++;
  }
  return summary;
}

/** Tells every page what a round of sending did, when it did anything; a page or the service worker may have run it. */
export function announceSending({ sent, refused, stopped }: SendSummary): void {
  if (sent.length === 0 && refused === 0 && !stopped) return;
  tellWaitingPlantsNews({ kind: "sent", sent: sent.map(({ seq }) => seq), refused, ...(stopped && { stopped }) });
}

/** The NewPlant a waiting plant holds, judged by the API's schema as the server will judge it. */
export function readPlant(waiting: WaitingPlant): { ok: true; value: NewPlant } | { ok: false; fieldErrors: { field: "id" | "name" | "tag"; message: string }[] } {
  const { id, name, tag } = waiting.plant;
  const read = newPlantSchema.safeParse({ id: BigInt(id), name, ...(tag !== undefined && { tag }) });
  if (read.success) return { ok: true, value: read.data };
  return {
    ok: false,
    fieldErrors: read.error.issues.flatMap((issue) => {
      const field = issue.path[0];
      return field === "id" || field === "name" || field === "tag" ? [{ field, message: issue.message }] : [];
    }),
  };
}

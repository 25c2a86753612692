import { askForBackgroundSync } from "@/lib/client/offline/background-sync";
import { waitingPlants } from "@/lib/client/offline/waiting-plants";
import { type PlantRefusal, submitPlant } from "@/lib/client/plant-submission";
import type { NewPlant, Plant } from "@/lib/validations/plant";

// What the staff form does with a plant: send it now, or, when it cannot be
// sent now (no connection, the app down, the session ended), keep it in this
// browser to be sent later. Only the app's own refusal (400, 409) goes back
// to the person; a plant is never lost to a bad connection.

export type SaveOutcome =
  | { kind: "stored"; plant: Plant; replayed: boolean }
  /** `seq`: the waiting plant it is kept as, until it is sent (lib/client/offline/send-waiting-plants.ts). */
  | { kind: "kept"; plant: NewPlant; because: "unreachable" | "signed out"; seq: number }
  | { kind: "refused"; refusal: PlantRefusal };

/** Saves a plant; `waitingSeq` names the waiting plant it replaces (one the person changed), which goes once stored. */
export async function savePlant(plant: NewPlant, waitingSeq?: number): Promise<SaveOutcome> {
  const result = await submitPlant(plant);
  if (result.ok) {
    if (waitingSeq !== undefined) await waitingPlants.remove(waitingSeq);
    return { kind: "stored", plant: result.plant, replayed: result.replayed };
  }
  if (result.reason === "refused") return { kind: "refused", refusal: result };
  let seq: number;
  try {
    seq = await waitingPlants.keep(plant, waitingSeq);
  } catch {
    return { kind: "refused", refusal: { ...result, formError: `${result.formError ?? "The plant was not saved."} This browser cannot keep it to send later; try again.` } };
  }
  await askForBackgroundSync();
  return { kind: "kept", plant, because: result.reason, seq };
}

import { z } from "zod";
import type { Attribution } from "@/lib/activity/actor";
import { toActivityEntry } from "@/lib/activity/history";
import { recordActivity } from "@/lib/activity/record";
import { db } from "@/lib/db/client";
import { announcePlantChanges } from "@/lib/live/change-signal";
import { insertPlantIfFree } from "@/lib/plants/plant-queries";
import type { Plant } from "@/lib/validations/plant";
import { wakeWebhookWorker } from "@/lib/webhooks/worker-signal";

// Undoing a delete (issue 22): a plant.deleted record keeps the plant whole,
// as it was (deletePlant), and a restore stores it again from there: the same
// id, name and tag, as a new plant (version 1, created now), so a client
// holding the deleted plant's ETag cannot change it by mistake. The plant and
// its plant.restored record are one transaction; the outbox trigger writes
// the plant.created event in it too, so webhook receivers learn of the plant
// as of any other new one. An id taken meanwhile is never overwritten: the
// restore is refused and writes nothing.

/** Why a restore was refused, as a sentence for the person who asked. */
export class RestoreRefusedError extends Error {
  override name = "RestoreRefusedError";
}

export type RestoredPlant = { plant: Plant; version: 1; createdAt: Date };

// What deletePlant keeps (lib/plants/plant-queries.ts): exact JSON, the id a bigint, no tag when it had none.
const deletedPlantSchema = z.object({ id: z.bigint(), name: z.string(), tag: z.string().nullish() });

/** Stores again the plant that the plant.deleted record `recordId` keeps, attributed to `by`; RestoreRefusedError when it cannot be. */
export async function restorePlant(recordId: bigint, by: Attribution): Promise<RestoredPlant> {
  const plant = await deletedPlant(recordId);
  const createdAt = new Date();
  const restored = await db().$transaction(async (tx) => {
    if (!(await insertPlantIfFree(tx, plant, createdAt))) return false;
    const changes = { after: plant, restoredFrom: recordId };
    await recordActivity(tx, [{ action: "plant.restored", subjectKind: "plant", subjectId: String(plant.id), changes, by }], createdAt);
    return true;
  });
  if (!restored) {
    throw new RestoreRefusedError(`Plant ${plant.id} was not restored: its id has been taken by a plant stored since it was deleted. Nothing was changed.`);
  }
  // The plant.created event is in the outbox: no need for the worker to wait for its next poll.
  wakeWebhookWorker();
  announcePlantChanges();
  return { plant, version: 1, createdAt };
}

/** The plant a plant.deleted record keeps. */
export async function deletedPlant(recordId: bigint): Promise<Plant> {
  const row = await db().activity.findUnique({ where: { id: recordId } });
  if (!row) throw new RestoreRefusedError(`No activity record has id ${recordId}.`);
  const entry = toActivityEntry(row);
  if (entry.action !== "plant.deleted" || entry.subjectKind !== "plant") {
    throw new RestoreRefusedError(`Record ${recordId} is not a plant's delete (it is ${entry.action}): only a deleted plant can be restored.`);
  }
  const kept = deletedPlantSchema.safeParse(entry.changes.before);
  if (!kept.success || String(kept.data.id) !== entry.subjectId) {
    throw new RestoreRefusedError(`Record ${recordId} does not hold the deleted plant whole, so it cannot be restored.`);
  }
  const { id, name, tag } = kept.data;
  return tag == null ? { id, name } : { id, name, tag };
}

/** Which of these plant ids are free now: a deleted plant whose id is free can be restored (the page offers it then). */
export async function freePlantIds(ids: readonly bigint[]): Promise<Set<bigint>> {
  if (ids.length === 0) return new Set();
  const taken = await db().plant.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true } });
  const takenIds = new Set(taken.map((plant) => plant.id));
  return new Set(ids.filter((id) => !takenIds.has(id)));
}

import { type ActivityEntry, plantHistory } from "@/lib/activity/history";
import type { Plant } from "@/lib/validations/plant";

// A plant that is no longer stored but has a history: its page says it was
// deleted, when and by whom, from the record's newest entry (issue 22).

/**
 * What the record says of a plant no longer stored: the delete (`deletion`,
 * with the plant as it was), or null for both when the record does not end
 * with one (a plant removed by a program writing to the database directly,
 * which the app cannot attribute).
 */
export type PlantDeletion = { deletion: ActivityEntry | null; plant: Plant | null };

/** For a plant id that no stored plant has: its deletion, or undefined when the record has nothing on this id. */
export async function findPlantDeletion(id: bigint): Promise<PlantDeletion | undefined> {
  const [newest] = (await plantHistory(id, { limit: 1 })).entries;
  if (!newest) return undefined;
  if (newest.action !== "plant.deleted") return { deletion: null, plant: null };
  return { deletion: newest, plant: plantAsItWas(id, newest.changes.before) };
}

function plantAsItWas(id: bigint, before: Record<string, unknown> | undefined): Plant | null {
  if (typeof before?.name !== "string") return null;
  return typeof before.tag === "string" ? { id, name: before.name, tag: before.tag } : { id, name: before.name };
}

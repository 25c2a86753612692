import type { Plant } from "@/lib/validations/plant";

// A change to a plant as the staff pages read it from the change feed (lib/client/change-feed.ts).

export const PLANT_CHANGE_TYPES = ["plant.created", "plant.updated", "plant.deleted"] as const;

export type PlantChangeType = (typeof PLANT_CHANGE_TYPES)[number];

/** One change: its position in the feed, and the plant as it is now (as it was, deleted). */
export type PlantChangeEvent = { position: string; type: PlantChangeType; at: Date; plant: Plant };

import type { PlantChangeEvent, PlantChangeType } from "@/lib/client/plant-change-event";
import { parseExactJson } from "@/lib/json/exact-json";
import { plantSchema } from "@/lib/validations/plant";

// Reading one change feed event's data (lib/client/change-feed.ts), loaded
// with the first event rather than with the page: the exact parser and the
// API's schemas weigh more than the page's own script (issue 20's budgets).

/** The event's data, the webhooks' body, read through the API's own plant schema; undefined if it is not one. */
export function readPlantChange(type: PlantChangeType, position: string, data: string): PlantChangeEvent | undefined {
  const body = parseExactJson(data) as { timestamp?: unknown; data?: unknown };
  const plant = plantSchema.safeParse(body.data);
  if (!plant.success || typeof body.timestamp !== "string") return undefined;
  return { position, type, at: new Date(body.timestamp), plant: plant.data };
}

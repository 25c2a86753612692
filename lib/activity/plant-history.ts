import { type ActivityEntry, type ActivityPage, plantHistory } from "@/lib/activity/history";
import { PlantNotFoundError } from "@/lib/plants/plant-errors";
import { findPlantRecord } from "@/lib/plants/plant-queries";
import type { PlantActivity } from "@/lib/validations/plant-history";

// A plant's history as the API answers it (GET /plants/{id}/history): its
// records newest first, for a plant that exists or one that has a record (a
// deleted plant's history ends with its delete). Where a change came from
// (the client's address and User-Agent) is for owners, not for every token
// that may read plants, and is left out.

export type PlantHistoryPage = { records: PlantActivity[]; next: bigint | null };

function toApi(entry: ActivityEntry): PlantActivity {
  const { before, after } = entry.changes;
  return {
    id: entry.id,
    at: entry.occurredAt.toISOString(),
    action: entry.action as PlantActivity["action"],
    by: { kind: entry.actor.kind, name: entry.actor.name, userId: entry.actor.userId, tokenId: entry.actor.tokenId },
    requestId: entry.origin.requestId,
    ...(before && { before }),
    ...(after && { after }),
  };
}

/** The page of a plant's history; PlantNotFoundError when the plant neither exists nor has a record. */
export async function plantHistoryPage(id: bigint, page: { limit: number; before?: bigint }): Promise<PlantHistoryPage> {
  const found: ActivityPage = await plantHistory(id, page);
  if (found.entries.length === 0 && page.before === undefined && !(await findPlantRecord(id))) throw new PlantNotFoundError(id);
  return { records: found.entries.map(toApi), next: found.next };
}

import { plantHistoryQuerySchema } from "@/lib/validations/plant";
import { HISTORY_BEFORE_PARAM } from "@/lib/validations/plant-history-param";

export { HISTORY_BEFORE_PARAM };

// A plant's page shows its history a page at a time, newest first (issue 22),
// as the API's GET /plants/{id}/history does: a page of older changes is the
// one before the oldest record seen, by the record's id (exact, as any int64).
// Its parameter is named for the history, so it can never be taken for the
// plant's own fields.

export const PLANT_HISTORY_PAGE_SIZE = 20;


/** The plant page's URL showing its changes before the record `before` (the newest, without), at the history. */
export function plantHistoryHref(id: bigint, before?: bigint): string {
  const query = before === undefined ? "" : `?${HISTORY_BEFORE_PARAM}=${before}`;
  return `/plants/${id}${query}#plant-history`;
}

/** The record id a plant page's URL continues its history before: none for the newest page, and `mistaken` when the parameter is no id written the canonical way. */
export function readHistoryBefore(params: Record<string, string | string[] | undefined>): { before?: bigint; mistaken: boolean } {
  const value = params[HISTORY_BEFORE_PARAM];
  if (value === undefined) return { mistaken: false };
  const parsed = plantHistoryQuerySchema.shape.before.safeParse(value);
  return parsed.success && parsed.data !== undefined ? { before: parsed.data, mistaken: false } : { mistaken: true };
}

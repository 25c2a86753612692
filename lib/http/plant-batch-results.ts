import { ApiError } from "@/lib/http/api-error";
import { validationError } from "@/lib/http/parse-input";
import type { PlantBatchItem } from "@/lib/http/plant-batch-body";
import type { NewPlantOutcome } from "@/lib/plants/plant-queries";
import type { ApiErrorBody } from "@/lib/validations/api-error";
import { type NewPlant, newPlantSchema } from "@/lib/validations/plant";
import type { PlantBatchResult } from "@/lib/validations/plant-batch";

/** Decides the valid plants of a batch, one outcome each in their order: createPlants (with the request's attribution), or previewCreatePlants, which writes nothing. */
export type DecideNewPlants = (plants: readonly NewPlant[]) => Promise<NewPlantOutcome[]>;

/**
 * Answers a batch item by item, as lib/http/error-response.ts answers one
 * request: each item is checked against NewPlant, the valid ones are stored
 * together (one transaction), and each gets the status and, when refused,
 * the error body a single create of it would have got. In the batch's order.
 * With previewCreatePlants as `decide`, the same answer is given without
 * storing anything, "stored" meaning the plant would be (the staff import's preview).
 */
export async function answerPlantBatch(items: readonly PlantBatchItem[], decide: DecideNewPlants): Promise<PlantBatchResult[]> {
  const results = new Array<PlantBatchResult>(items.length);
  const valid: { item: PlantBatchItem; plant: NewPlant }[] = [];
  for (const item of items) {
    if ("refused" in item) {
      results[item.index] = { ...place(item), status: "invalid", error: errorBody(item, item.refused) };
      continue;
    }
    const parsed = newPlantSchema.safeParse(item.input);
    if (parsed.success) valid.push({ item, plant: parsed.data });
    else results[item.index] = { ...place(item), status: "invalid", error: errorBody(item, validationError(parsed.error, "(item)")) };
  }
  const outcomes = await decide(valid.map(({ plant }) => plant));
  outcomes.forEach((outcome, n) => {
    const { item } = valid[n]!;
    results[item.index] =
      outcome.status === "conflict"
        ? { ...place(item), status: "conflict", error: errorBody(item, new ApiError("Conflict", outcome.error.message)) }
        : { ...place(item), status: outcome.status, plant: outcome.plant };
  });
  return results;
}

function place({ index, line }: PlantBatchItem): Pick<PlantBatchResult, "index" | "line"> {
  return line === undefined ? { index } : { index, line };
}

/** The error body of a refused item; a CSV item's message names its line. */
function errorBody({ line }: PlantBatchItem, { status, message, extra }: ApiError): ApiErrorBody {
  return { error: status, message: line === undefined ? message : `line ${line}: ${message}`, ...(extra.details && { details: extra.details }) };
}

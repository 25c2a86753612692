import { ApiError } from "@/lib/http/api-error";
import { type PlantBatchItem, readPlantBatch } from "@/lib/http/plant-batch-body";
import { answerPlantBatch } from "@/lib/http/plant-batch-results";
import { unguardCsvText } from "@/lib/plants/csv-cells";
import { previewCreatePlants } from "@/lib/plants/plant-queries";
import type { PlantCsvCells } from "@/lib/validations/plant-batch";
import type { PlantImportPreview } from "@/lib/validations/plant-import";

/**
 * What POST /plants/batch would answer for this CSV at this moment, storing
 * nothing (the staff import's preview, issue 11). The CSV goes through the
 * batch's own reader, as a text/csv body: its limits, header rule, line
 * numbers and formula guard; and its own answer, with previewCreatePlants
 * deciding in place of createPlants. A CSV the batch would refuse as a whole
 * gets the batch's reason.
 */
export async function previewPlantBatchCsv(csv: Blob): Promise<PlantImportPreview> {
  // Never sent anywhere: a Request is what the batch's reader reads.
  const request = new Request("http://plant-store.invalid/plants/batch", { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
  let items: PlantBatchItem[];
  try {
    items = await readPlantBatch(request);
  } catch (error) {
    if (error instanceof ApiError) return { problem: csvProblem(error) };
    throw error;
  }
  const results = await answerPlantBatch(items, previewCreatePlants);
  return { rows: items.map((item) => ({ cells: shownCells(item.cells ?? {}), result: results[item.index]! })) };
}

// The batch's messages speak of the request body, which here is the CSV staff chose.
function csvProblem({ message }: ApiError): string {
  return message.replace(/^the request body\b/, "the CSV");
}

/** Name and tag as they would be stored: without the one apostrophe an export puts before a formula-like text. */
function shownCells({ id, name, tag }: PlantCsvCells): PlantCsvCells {
  return {
    ...(id !== undefined && { id }),
    ...(name !== undefined && { name: unguardCsvText(name) }),
    ...(tag !== undefined && { tag: unguardCsvText(tag) }),
  };
}

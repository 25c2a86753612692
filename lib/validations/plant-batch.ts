import { z } from "zod";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { type PlantField, plantSchema } from "@/lib/validations/plant";

// A batch of new plants (POST /plants/batch) and what the API answers for each
// of its items. Each item is a NewPlant checked on its own by newPlantSchema,
// so one bad item does not refuse the others; only the batch as a whole (not
// a list, too long) is refused here.

export const PLANT_BATCH_MAX = 1000;

// At its longest, 1,000 plants with 20-digit ids and names and tags of 4-byte
// characters, a batch is about 1.05 MB of compact JSON or CSV; twice 1 MiB
// leaves room for pretty-printed JSON and CSV quoting.
/** The most bytes a batch's body may have (POST /plants/batch answers 413 past it). */
export const PLANT_BATCH_MAX_BYTES = 2 * 1024 * 1024;

/** The batch as JSON: a list of at most PLANT_BATCH_MAX items, each checked against NewPlant afterwards. */
export const plantBatchSchema = z
  .array(z.unknown(), { error: "the body must be a JSON array of plants (NewPlant objects)" })
  .max(PLANT_BATCH_MAX, `a batch holds at most ${PLANT_BATCH_MAX} plants; send more in several batches`)
  .describe(`Up to ${PLANT_BATCH_MAX} plants to store, each a NewPlant`);

/** The batch as CSV, for the document: the reader (lib/http/plant-batch-body.ts) applies these rules. */
export const plantBatchCsvSchema = z
  .string()
  .describe(
    [
      `RFC 4180 CSV in UTF-8: a header row naming the columns id and name, and tag if any, in any order; then up to ${PLANT_BATCH_MAX} rows, one plant each.`,
      "An id cell is read as a JSON number is (1e3 is 1000). A name or tag cell that begins with an apostrophe followed by =, +, -, @ or",
      "another apostrophe loses that one apostrophe (the guard spreadsheets need against formulas). An empty cell is an absent value: no tag.",
    ].join(" "),
  );

/** A CSV row's cells by the header's columns (id, name, tag), as text. */
export type PlantCsvCells = Partial<Record<PlantField, string>>;

const resultPlace = {
  index: z.int32().min(0).meta({ format: "int32" }).describe("The item's position in the batch, from 0"),
  line: z.int32().min(2).meta({ format: "int32" }).optional().describe("CSV only: the line of the file where the item's row begins, the first line being 1 (the header's, as a rule)"),
};

export const plantBatchResultSchema = z
  .discriminatedUnion("status", [
    z.object({
      ...resultPlace,
      status: z.enum(["stored", "already stored"]).describe("stored: written by this request; already stored: the same plant was there, nothing written"),
      plant: plantSchema.describe("The plant as stored"),
    }),
    z.object({
      ...resultPlace,
      status: z.enum(["conflict", "invalid"]).describe("conflict: another plant has this id; invalid: the item breaks a NewPlant rule. Nothing written"),
      error: apiErrorBodySchema.describe("Why, as the single create would answer it: 409 for a conflict, 400 with details for an invalid item"),
    }),
  ])
  .describe("What became of one item of a batch");

export type PlantBatchResult = z.infer<typeof plantBatchResultSchema>;

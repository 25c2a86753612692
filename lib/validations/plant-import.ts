import { z } from "zod";
import { PLANT_BATCH_MAX, PLANT_BATCH_MAX_BYTES, type PlantBatchResult, type PlantCsvCells } from "@/lib/validations/plant-batch";

// The staff import (issue 11): a CSV file, or CSV text, previewed and then
// sent to POST /plants/batch as it is. Every rule of the file itself (header,
// rows, limits) is the batch's: this form only picks the one source and
// keeps to the batch's size limit, so a file the batch would refuse for its
// size is not sent only to be refused.

const MIB = 1024 * 1024;

/** "2,097,152 bytes (2 MiB)", the batch's limit as staff read it. */
export const PLANT_IMPORT_SIZE_LIMIT = `${PLANT_BATCH_MAX_BYTES / MIB} MiB (${PLANT_BATCH_MAX_BYTES.toLocaleString("en")} bytes)`;

function tooLarge(what: string, bytes: number): string {
  return `${what} is ${(bytes / MIB).toFixed(1)} MiB; an import takes at most ${PLANT_IMPORT_SIZE_LIMIT}: split it into several of up to ${PLANT_BATCH_MAX.toLocaleString("en")} rows`;
}

/** What the form holds: the chosen file, if any, and the pasted text. */
export const plantImportFormSchema = z
  .object({
    file: z.instanceof(File).optional(),
    text: z.string(),
  })
  .superRefine(({ file, text }, ctx) => {
    if (file === undefined && text === "") {
      ctx.addIssue({ code: "custom", path: ["file"], message: "Choose a CSV file, or paste CSV text below" });
      return;
    }
    if (file !== undefined && text !== "") {
      ctx.addIssue({ code: "custom", path: ["text"], message: "Choose a file or paste text, not both: clear this text to import the file" });
      return;
    }
    if (file !== undefined && file.size > PLANT_BATCH_MAX_BYTES) ctx.addIssue({ code: "custom", path: ["file"], message: tooLarge("The file", file.size) });
    const textBytes = new TextEncoder().encode(text).byteLength;
    if (textBytes > PLANT_BATCH_MAX_BYTES) ctx.addIssue({ code: "custom", path: ["text"], message: tooLarge("The text", textBytes) });
  })
  // The file goes as it is, byte for byte: its encoding is the batch's to judge (UTF-8), as it would be from any client.
  .transform(({ file, text }): { csv: Blob } => ({ csv: file ?? new Blob([text], { type: "text/csv" }) }));

export type PlantImportFormValues = z.input<typeof plantImportFormSchema>;
export type PlantImportSource = z.output<typeof plantImportFormSchema>;

export { PLANT_IMPORT_CSV_FIELD } from "@/lib/validations/plant-import-field";

/** The server action's input: the CSV to preview. */
export const plantImportUploadSchema = z.instanceof(Blob, { error: "send the CSV to preview as a file" });

/**
 * One row of a previewed CSV: its cells (the id as written; name and tag as
 * they would be stored, without the formula guard) and what POST
 * /plants/batch would answer for it now ("stored" meaning it would be).
 */
export type PlantImportRow = { cells: PlantCsvCells; result: PlantBatchResult };

/** A preview: a result per row, or why the batch would refuse the whole CSV. */
export type PlantImportPreview = { rows: PlantImportRow[] } | { problem: string };

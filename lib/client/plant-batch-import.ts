import { z } from "zod";
import { readApiAnswer, sendToApi } from "@/lib/client/api-request";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { type PlantBatchResult, plantBatchResultSchema } from "@/lib/validations/plant-batch";

// The staff import's request to POST /plants/batch and the reading of its
// answer. Runs in the browser: the session cookie authenticates it, the CSV
// goes as it is (the preview read the very same bytes), and ids come back
// exact (never through a JS number).

export type PlantBatchImport = { ok: true; results: PlantBatchResult[] } | { ok: false; message: string };

// The exact parser reads every integer as a bigint; the answer's small ones
// (index, line, an error's status) are numbers in the API's schema.
const smallInteger = z.bigint().transform(Number).pipe(z.int32());
const place = { index: smallInteger, line: smallInteger.optional() };
const [decidedResult, refusedResult] = plantBatchResultSchema.options;
const batchAnswerSchema = z.array(
  z.discriminatedUnion("status", [decidedResult.extend(place), refusedResult.extend({ ...place, error: apiErrorBodySchema.extend({ error: smallInteger }) })]),
);
const errorAnswerSchema = apiErrorBodySchema.omit({ error: true });

const RETRY_IS_SAFE = "Importing the same file again is safe: plants already stored come back as “already stored”.";

export async function importPlantBatch(csv: Blob, fetcher: typeof fetch = fetch): Promise<PlantBatchImport> {
  const response = await sendToApi(fetcher, "/plants/batch", {
    method: "POST",
    // Whatever type the browser gave the file (Windows calls .csv files application/vnd.ms-excel): the batch reads CSV.
    headers: { "content-type": "text/csv", accept: "application/json" },
    body: csv,
  });
  if (!response) return { ok: false, message: `The server could not be reached, so the plants may or may not have been stored. ${RETRY_IS_SAFE}` };
  const body = readApiAnswer(await response.text());
  if (response.ok) {
    const answer = batchAnswerSchema.safeParse(body);
    if (answer.success) return { ok: true, results: answer.data };
    return { ok: false, message: `The server's answer could not be read, so the plants may or may not have been stored. ${RETRY_IS_SAFE}` };
  }
  if (response.status === 401) return { ok: false, message: "Your session has ended. Sign in again in another tab, then import again." };
  const error = errorAnswerSchema.safeParse(body);
  const reason = error.success ? error.data.message : `the server answered ${response.status}`;
  // A 4xx refuses the whole batch before anything is stored; after a fault (or a proxy giving up) no one can say.
  if (response.status < 500) return { ok: false, message: `Nothing was imported: ${reason}.` };
  return { ok: false, message: `The import failed (${reason}), so the plants may or may not have been stored. ${RETRY_IS_SAFE}` };
}

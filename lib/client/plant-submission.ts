import { parseExactJson, stringifyExactJson } from "@/lib/json/exact-json";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { type NewPlant, type Plant, type PlantField, plantFieldSchema, plantSchema } from "@/lib/validations/plant";

// The staff form's request to POST /plants and the reading of its answer.
// Runs in the browser: the session cookie authenticates it, and ids travel
// as exact JSON integers both ways (never through a JS number). Answers are
// read through the API's own schemas.

export type PlantSubmission =
  | { ok: true; plant: Plant }
  | { ok: false; fieldErrors: { field: PlantField; message: string }[]; formError?: string };

// The exact parser reads every integer as a bigint, `error` included; the
// status is known from the response, so only the message and details are read.
const errorAnswerSchema = apiErrorBodySchema.omit({ error: true });

export async function submitPlant(plant: NewPlant, fetcher: typeof fetch = fetch): Promise<PlantSubmission> {
  let response: Response;
  try {
    response = await fetcher("/plants", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: stringifyExactJson(plant),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, fieldErrors: [], formError: "The server could not be reached. Check your connection and try again." };
  }
  const body = readBody(await response.text());
  if (response.ok) {
    const stored = plantSchema.safeParse(body);
    if (stored.success) return { ok: true, plant: stored.data };
  }
  return { ok: false, ...explain(response.status, body) };
}

function explain(status: number, body: unknown): Omit<Extract<PlantSubmission, { ok: false }>, "ok"> {
  const answer = errorAnswerSchema.safeParse(body);
  const message = answer.success ? answer.data.message : `the server answered ${status}`;
  if (status === 409) return { fieldErrors: [{ field: "id", message: `${message}; choose another id` }] };
  if (status === 401) return { fieldErrors: [], formError: "Your session has ended. Sign in again in another tab, then submit again." };
  if (status === 400 && answer.success && answer.data.details) {
    const fieldErrors = answer.data.details.flatMap(({ field, message: text }) => {
      const known = plantFieldSchema.safeParse(field);
      return known.success ? [{ field: known.data, message: text }] : [];
    });
    const leftOver = answer.data.details.length - fieldErrors.length;
    return { fieldErrors, ...(leftOver > 0 && { formError: message }) };
  }
  return { fieldErrors: [], formError: `The plant was not saved: ${message}.` };
}

function readBody(text: string): unknown {
  try {
    return parseExactJson(text);
  } catch {
    return undefined;
  }
}

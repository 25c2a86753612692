import { readApiAnswer, sendToApi } from "@/lib/client/api-request";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { type Plant, type PlantField, plantFieldSchema, type PlantPatch, plantSchema } from "@/lib/validations/plant";

// A plant's page changing and deleting the plant through the API, from the
// browser with the session cookie: PATCH and DELETE /plants/{id}, each only
// on the version the page shows (If-Match: its ETag), so that a change
// someone else made meanwhile is never overwritten unseen. A 412 is answered
// with the plant as it is now, for the person to choose between. Ids travel
// as exact JSON integers; answers are read through the API's own schemas.

/** A version of a plant: the plant and the ETag that names it. */
export type PlantVersionShown = { plant: Plant; etag: string };

/** Neither done nor in conflict: field errors from a 400, or a message for the whole. */
export type Refusal = { kind: "refused"; fieldErrors: { field: PlantField; message: string }[]; formError?: string };

/** Someone else changed the plant meanwhile (412); this is their version. */
export type Conflict = { kind: "conflict"; current: PlantVersionShown };

/** The plant is gone: someone else deleted it meanwhile. */
export type Gone = { kind: "gone" };

export type ChangeOutcome = { kind: "changed"; stored: PlantVersionShown } | Conflict | Gone | Refusal;
export type DeleteOutcome = { kind: "deleted" } | Conflict | Gone | Refusal;

const UNREACHABLE: Refusal = { kind: "refused", fieldErrors: [], formError: "The server could not be reached. Check your connection and try again." };

// The exact parser reads every integer as a bigint, `error` included; the
// status is known from the response, so only the message and details are read.
const errorAnswerSchema = apiErrorBodySchema.omit({ error: true });

const plantUrl = (id: bigint) => `/plants/${id}`;

/** Changes a plant by a merge patch, only if it is still at the version `etag` names. */
export async function changePlant(id: bigint, patch: PlantPatch, etag: string, fetcher: typeof fetch = fetch): Promise<ChangeOutcome> {
  const response = await sendToApi(fetcher, plantUrl(id), {
    method: "PATCH",
    headers: { "content-type": "application/merge-patch+json", accept: "application/json", "if-match": etag },
    body: stringifyExactJson(patch),
  });
  if (!response) return UNREACHABLE;
  const body = readApiAnswer(await response.text());
  const stored = response.ok ? versionFrom(response, body) : undefined;
  return stored ? { kind: "changed", stored } : settle(id, response.status, body, "The plant was not saved", fetcher);
}

/** Deletes a plant, only if it is still at the version `etag` names. */
export async function deletePlant(id: bigint, etag: string, fetcher: typeof fetch = fetch): Promise<DeleteOutcome> {
  const response = await sendToApi(fetcher, plantUrl(id), { method: "DELETE", headers: { accept: "application/json", "if-match": etag } });
  if (!response) return UNREACHABLE;
  if (response.status === 204) return { kind: "deleted" };
  return settle(id, response.status, readApiAnswer(await response.text()), "The plant was not deleted", fetcher);
}

/** The plant as it is now, with its ETag. */
export async function readPlant(id: bigint, fetcher: typeof fetch = fetch): Promise<PlantVersionShown | Gone | Refusal> {
  const response = await sendToApi(fetcher, plantUrl(id), { headers: { accept: "application/json" } });
  if (!response) return UNREACHABLE;
  if (response.status === 404) return { kind: "gone" };
  const body = readApiAnswer(await response.text());
  return (response.ok ? versionFrom(response, body) : undefined) ?? explain(response.status, body, "The plant could not be read");
}

/** What a write's failure means: a 412 becomes the other version, a 404 a plant that is gone. */
async function settle(id: bigint, status: number, body: unknown, failed: string, fetcher: typeof fetch): Promise<Conflict | Gone | Refusal> {
  if (status === 404) return { kind: "gone" };
  if (status !== 412) return explain(status, body, failed);
  const current = await readPlant(id, fetcher);
  return "plant" in current ? { kind: "conflict", current } : current;
}

function versionFrom(response: Response, body: unknown): PlantVersionShown | undefined {
  const etag = response.headers.get("etag");
  const plant = plantSchema.safeParse(body);
  return etag && plant.success ? { plant: plant.data, etag } : undefined;
}

function explain(status: number, body: unknown, failed: string): Refusal {
  const answer = errorAnswerSchema.safeParse(body);
  const message = answer.success ? answer.data.message : `the server answered ${status}`;
  if (status === 401) return { kind: "refused", fieldErrors: [], formError: "Your session has ended. Sign in again in another tab, then try again." };
  if (status === 400 && answer.success && answer.data.details) {
    const fieldErrors = answer.data.details.flatMap(({ field, message: text }) => {
      const known = plantFieldSchema.safeParse(field);
      return known.success ? [{ field: known.data, message: text }] : [];
    });
    const leftOver = answer.data.details.length - fieldErrors.length;
    return { kind: "refused", fieldErrors, ...(leftOver > 0 && { formError: `${failed}: ${message}.` }) };
  }
  return { kind: "refused", fieldErrors: [], formError: `${failed}: ${message}.` };
}

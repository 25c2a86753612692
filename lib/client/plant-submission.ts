import { readApiAnswer, sendToApi } from "@/lib/client/api-request";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { type NewPlant, type Plant, type PlantField, plantFieldSchema, plantSchema } from "@/lib/validations/plant";

// The staff app's request to POST /plants and the reading of its answer, for
// the form and for plants sent again from the offline queue (in the page or
// in the service worker). Runs in the browser: the session cookie
// authenticates it, and ids travel as exact JSON integers both ways (never
// through a JS number). Answers are read through the API's own schemas.

export type FieldError = { field: PlantField; message: string };

export type PlantSubmission =
  /** Stored; `replayed` when it had been stored already (Idempotent-Replayed: true), so nothing was written. */
  | { ok: true; plant: Plant; replayed: boolean }
  /**
   * Not stored. `unreachable`: no answer, or a gateway's that the app is down
   * (the same request may succeed later); `signed out`: the session has ended
   * (401); `refused`: the app said no (400, 409 and the like), and says why,
   * in the API's words, on the fields and the form. `status` is the HTTP
   * status, 0 when nothing answered.
   */
  | { ok: false; reason: "unreachable" | "signed out" | "refused"; status: number; fieldErrors: FieldError[]; formError?: string };

export type PlantRefusal = Extract<PlantSubmission, { ok: false }>;

// The exact parser reads every integer as a bigint, `error` included; the
// status is known from the response, so only the message and details are read.
const errorAnswerSchema = apiErrorBodySchema.omit({ error: true });

// A proxy's answers while the app behind it is down or restarting: worth trying again.
const GATEWAY_STATUSES = new Set([502, 503, 504]);

// lib/http/plant-response.ts sets it; the header is exposed to the browser (same origin, or CORS).
const IDEMPOTENT_REPLAYED = "idempotent-replayed";

export async function submitPlant(plant: NewPlant, fetcher: typeof fetch = fetch): Promise<PlantSubmission> {
  const response = await sendToApi(fetcher, "/plants", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: stringifyExactJson(plant),
    // An answer to a session's request is never one to keep.
    cache: "no-store",
  });
  if (!response) return unreachable(0);
  if (GATEWAY_STATUSES.has(response.status)) return unreachable(response.status);
  const body = readApiAnswer(await response.text().catch(() => ""));
  if (response.ok) {
    const stored = plantSchema.safeParse(body);
    if (stored.success) return { ok: true, plant: stored.data, replayed: response.headers.get(IDEMPOTENT_REPLAYED) === "true" };
  }
  return explain(response.status, body);
}

function unreachable(status: number): PlantRefusal {
  return { ok: false, reason: "unreachable", status, fieldErrors: [], formError: "The server could not be reached." };
}

function explain(status: number, body: unknown): PlantRefusal {
  const answer = errorAnswerSchema.safeParse(body);
  const message = answer.success ? answer.data.message : `the server answered ${status}`;
  if (status === 401) return { ok: false, reason: "signed out", status, fieldErrors: [], formError: "Your session has ended." };
  if (status === 409) return { ok: false, reason: "refused", status, fieldErrors: [{ field: "id", message: `${message}; choose another id` }] };
  if (status === 400 && answer.success && answer.data.details) {
    const fieldErrors = answer.data.details.flatMap(({ field, message: text }) => {
      const known = plantFieldSchema.safeParse(field);
      return known.success ? [{ field: known.data, message: text }] : [];
    });
    const leftOver = answer.data.details.length - fieldErrors.length;
    return { ok: false, reason: "refused", status, fieldErrors, ...(leftOver > 0 && { formError: message }) };
  }
  return { ok: false, reason: "refused", status, fieldErrors: [], formError: `The plant was not saved: ${message}.` };
}

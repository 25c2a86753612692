import { parseExactJson, stringifyExactJson } from "@/lib/exact-json";
import type { NewPlant } from "@/lib/validations/plant";

// The staff form's request to POST /plants and the reading of its answer.
// Runs in the browser: the session cookie authenticates it, and ids travel
// as exact JSON integers both ways (never through a JS number).

export type PlantField = "id" | "name" | "tag";

export type PlantSubmission =
  | { ok: true; plant: { id: bigint; name: string; tag?: string } }
  | { ok: false; fieldErrors: { field: PlantField; message: string }[]; formError?: string };

const FIELDS: readonly string[] = ["id", "name", "tag"] satisfies PlantField[];

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
  if (response.ok && isPlant(body)) return { ok: true, plant: body };
  return { ok: false, ...explain(response.status, body) };
}

function explain(status: number, body: Record<string, unknown> | undefined): Omit<Extract<PlantSubmission, { ok: false }>, "ok"> {
  const message = typeof body?.message === "string" ? body.message : `the server answered ${status}`;
  if (status === 409) return { fieldErrors: [{ field: "id", message: `${message}; choose another id` }] };
  if (status === 401) return { fieldErrors: [], formError: "Your session has ended. Sign in again in another tab, then submit again." };
  if (status === 400 && Array.isArray(body?.details)) {
    const fieldErrors = body.details.filter(isFieldIssue);
    const leftOver = body.details.length - fieldErrors.length;
    return { fieldErrors, ...(leftOver > 0 && { formError: message }) };
  }
  return { fieldErrors: [], formError: `The plant was not saved: ${message}.` };
}

function readBody(text: string): Record<string, unknown> | undefined {
  try {
    const value = parseExactJson(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isPlant(body: Record<string, unknown> | undefined): body is { id: bigint; name: string; tag?: string } {
  return typeof body?.id === "bigint" && typeof body.name === "string" && (body.tag === undefined || typeof body.tag === "string");
}

function isFieldIssue(value: unknown): value is { field: PlantField; message: string } {
  if (typeof value !== "object" || value === null) return false;
  const { field, message } = value as Record<string, unknown>;
  return typeof field === "string" && FIELDS.includes(field) && typeof message === "string";
}

import { plantEtag } from "@/lib/http/entity-tags";
import { jsonResponse } from "@/lib/http/json-response";
import { evaluatePreconditions, readPreconditions } from "@/lib/http/preconditions";
import type { CreatedPlant, VersionedPlant } from "@/lib/plants/plant-queries";
import type { PlantVersion } from "@/lib/plants/plant-version";

/** An answer carrying one plant: the plant, and its version as its strong ETag. */
export function plantResponse(stored: VersionedPlant): Response {
  return jsonResponse(stored.plant, { headers: { etag: plantEtag(stored) } });
}

/**
 * Said on a create's 200 when the plant was already stored (an identical
 * repeat, which wrote nothing), so a client that retries, or replays what it
 * queued offline, can tell "saved now" from "saved before". The name and
 * value are Stripe's, which retrying clients already know; the answer is the
 * same 200 either way.
 */
export const IDEMPOTENT_REPLAYED = "idempotent-replayed";

/** POST /plants' answer: the plant with its ETag, and Idempotent-Replayed: true when it was already stored. */
export function createdPlantResponse(created: CreatedPlant): Response {
  const response = plantResponse(created);
  if (created.status === "already stored") response.headers.set(IDEMPOTENT_REPLAYED, "true");
  return response;
}

/**
 * 304: the client holds the current version (If-None-Match). No body, but
 * the ETag and Cache-Control a 200 would carry (RFC 9110 section 15.4.5).
 */
export function notModifiedResponse(current: PlantVersion): Response {
  return new Response(null, { status: 304, headers: { etag: plantEtag(current), "cache-control": "no-store" } });
}

/**
 * The request's If-Match and If-None-Match as a check of a plant's version
 * (lib/http/preconditions.ts), or undefined when it makes none: a GET learns
 * whether to answer 304; a change or a delete hands it to the data layer,
 * which runs it on the version it writes to, and a false condition throws
 * the 412.
 */
export function plantPreconditions(request: Request, id: bigint): ((current: PlantVersion) => "proceed" | "not modified") | undefined {
  const preconditions = readPreconditions(request);
  if (!preconditions) return undefined;
  return (current) => evaluatePreconditions(preconditions, { etag: plantEtag(current), name: `plant ${id}` });
}

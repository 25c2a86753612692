import { requestAttribution } from "@/lib/activity/request-attribution";
import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { MERGE_PATCH_MEDIA_TYPES, readJsonBody } from "@/lib/http/json-body";
import { fieldError, parseInput } from "@/lib/http/parse-input";
import { notModifiedResponse, plantPreconditions, plantResponse } from "@/lib/http/plant-response";
import { deletePlant, getVersionedPlant, updatePlant } from "@/lib/plants/plant-queries";
import { applyPlantPatch, newPlantSchema, plantPatchSchema, plantPathSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

// Every method evaluates If-Match and If-None-Match (RFC 9110 section 13.2.2, issue 20) through plantPreconditions.

export const GET = apiRoute(operations.getPlant, async ({ request, params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  const preconditions = plantPreconditions(request, id);
  const stored = await getVersionedPlant(id);
  return preconditions?.(stored) === "not modified" ? notModifiedResponse(stored) : plantResponse(stored);
});

export const PATCH = apiRoute(operations.updatePlant, async ({ request, requestId, params, caller }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  const preconditions = plantPreconditions(request, id);
  // RFC 9110 section 13.2.1: conditions are evaluated before the content is processed (a stale If-Match
  // is a 412, whatever the body); the write evaluates them again on the version it changes.
  if (preconditions) preconditions(await getVersionedPlant(id));
  const patch = parseInput(plantPatchSchema, await readJsonBody(request, { mediaTypes: MERGE_PATCH_MEDIA_TYPES }));
  if (patch.id !== undefined && patch.id !== id) throw fieldError("id", "id cannot change");
  // The patched plant meets the rules of a new one, judged on each attempt against the plant then stored.
  const by = requestAttribution(caller, request, requestId);
  const changed = await updatePlant(id, by, (stored) => parseInput(newPlantSchema, applyPlantPatch(stored, patch)), preconditions);
  return plantResponse(changed);
});

export const DELETE = apiRoute(operations.deletePlant, async ({ request, requestId, params, caller }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  await deletePlant(id, requestAttribution(caller, request, requestId), plantPreconditions(request, id));
  return new Response(null, { status: 204 });
});

export const { PUT, POST, OPTIONS } = otherMethods("/plants/{id}");

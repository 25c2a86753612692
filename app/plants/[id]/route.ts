import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { ifMatchCondition, ifNoneMatchNames } from "@/lib/http/entity-tags";
import { MERGE_PATCH_MEDIA_TYPES, readJsonBody } from "@/lib/http/json-body";
import { fieldError, parseInput } from "@/lib/http/parse-input";
import { notModifiedResponse, plantResponse } from "@/lib/http/plant-response";
import { deletePlant, getVersionedPlant, updatePlant } from "@/lib/plants/plant-queries";
import { applyPlantPatch, newPlantSchema, plantPatchSchema, plantPathSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

export const GET = apiRoute(operations.getPlant, async ({ request, params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  const stored = await getVersionedPlant(id);
  return ifNoneMatchNames(request, stored) ? notModifiedResponse(stored) : plantResponse(stored);
});

export const PATCH = apiRoute(operations.updatePlant, async ({ request, params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  const condition = ifMatchCondition(request);
  const patch = parseInput(plantPatchSchema, await readJsonBody(request, { mediaTypes: MERGE_PATCH_MEDIA_TYPES }));
  if (patch.id !== undefined && patch.id !== id) throw fieldError("id", "id cannot change");
  // The patched plant meets the rules of a new one, judged on each attempt against the plant then stored.
  const changed = await updatePlant(id, (stored) => parseInput(newPlantSchema, applyPlantPatch(stored, patch)), condition);
  return plantResponse(changed);
});

export const DELETE = apiRoute(operations.deletePlant, async ({ request, params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  await deletePlant(id, ifMatchCondition(request));
  return new Response(null, { status: 204 });
});

export const { PUT, POST, OPTIONS } = otherMethods("/plants/{id}");

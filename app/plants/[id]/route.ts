import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";
import { parseInput } from "@/lib/http/parse-input";
import { deletePlant, getPlant } from "@/lib/plants/plant-queries";
import { plantPathSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

export const GET = apiRoute(operations.getPlant, async ({ params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  return jsonResponse(await getPlant(id));
});

export const DELETE = apiRoute(operations.deletePlant, async ({ params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  await deletePlant(id);
  return new Response(null, { status: 204 });
});

export const { PUT, PATCH, POST, OPTIONS } = otherMethods("/plants/{id}");

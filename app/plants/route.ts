import { apiRoute, otherMethods } from "@/lib/api-route";
import { jsonResponse, parseInput } from "@/lib/api-error";
import { requireScope } from "@/lib/bearer-auth";
import { readJsonBody } from "@/lib/json-body";
import { createPlant } from "@/lib/plants";
import { newPlantSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

export const POST = apiRoute(async (request) => {
  await requireScope(request, "plants:write");
  const input = parseInput(newPlantSchema, await readJsonBody(request));
  return jsonResponse(await createPlant(input));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);

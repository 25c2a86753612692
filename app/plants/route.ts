import { apiRoute, otherMethods } from "@/lib/api-route";
import { jsonResponse, parseInput } from "@/lib/api-error";
import { requireScope } from "@/lib/bearer-auth";
import { readJsonBody } from "@/lib/json-body";
import { nextPageLink } from "@/lib/link-header";
import { createPlant, listPlants } from "@/lib/plants";
import { readQuery } from "@/lib/query-params";
import { listPlantsQuerySchema, newPlantSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  await requireScope(request, "plants:read");
  const query = parseInput(listPlantsQuerySchema, readQuery(request), "(query)");
  const page = await listPlants(query);
  if (page.nextAfter === undefined) return jsonResponse(page.plants);
  const link = nextPageLink(request, { limit: String(query.limit), after: String(page.nextAfter) });
  return jsonResponse(page.plants, { headers: { link } });
});

export const POST = apiRoute(async (request) => {
  await requireScope(request, "plants:write");
  const input = parseInput(newPlantSchema, await readJsonBody(request));
  return jsonResponse(await createPlant(input));
});

// Next answers HEAD with the GET handler (without the body), so HEAD is allowed.
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "HEAD", "POST"]);

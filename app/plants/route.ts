import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/json-body";
import { jsonResponse } from "@/lib/http/json-response";
import { nextPageLink } from "@/lib/http/link-header";
import { parseInput } from "@/lib/http/parse-input";
import { readQuery } from "@/lib/http/query-params";
import { createPlant, listPlants } from "@/lib/plants/plant-queries";
import { listPlantsQuerySchema, newPlantSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

export const GET = apiRoute(operations.listPlants, async ({ request }) => {
  const query = parseInput(listPlantsQuerySchema, readQuery(request), "(query)");
  const page = await listPlants(query);
  if (page.nextAfter === undefined) return jsonResponse(page.plants);
  const link = nextPageLink(request, { limit: String(query.limit), after: String(page.nextAfter) });
  return jsonResponse(page.plants, { headers: { link } });
});

export const POST = apiRoute(operations.createPlant, async ({ request }) => {
  const input = parseInput(newPlantSchema, await readJsonBody(request));
  return jsonResponse(await createPlant(input));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/plants");

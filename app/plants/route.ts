import { requestAttribution } from "@/lib/activity/request-attribution";
import { operations } from "@/lib/api/operations";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { negotiateMediaType } from "@/lib/http/content-negotiation";
import { CSV_MEDIA_TYPE, csvResponse } from "@/lib/http/csv-response";
import { readJsonBody } from "@/lib/http/json-body";
import { jsonResponse } from "@/lib/http/json-response";
import { nextPageLink } from "@/lib/http/link-header";
import { parseInput } from "@/lib/http/parse-input";
import { createdPlantResponse } from "@/lib/http/plant-response";
import { EXACT_COUNT, prefersExactCount } from "@/lib/http/prefer-header";
import { readQuery } from "@/lib/http/query-params";
import { plantCsv } from "@/lib/plants/plant-csv";
import { countPlants, createPlant, listPlants } from "@/lib/plants/plant-queries";
import { exportPlantsQuerySchema, listPlantsQuerySchema, newPlantSchema, type PlantFilter } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

// What GET /plants answers with, JSON first: no Accept, or */*, gets JSON.
const JSON_MEDIA_TYPE = "application/json";
const LIST_MEDIA_TYPES = [JSON_MEDIA_TYPE, CSV_MEDIA_TYPE] as const;
// Both change the answer (RFC 9110 section 12.5.5; RFC 7240 section 2).
const VARY = "Accept, Prefer";

export const GET = apiRoute(operations.listPlants, async ({ request, requestId }) => {
  const mediaType = negotiateMediaType(request.headers.get("accept"), LIST_MEDIA_TYPES);
  if (mediaType === undefined) throw new ApiError("NotAcceptable", "the plants are answered as application/json or text/csv; Accept allows neither");
  if (mediaType === CSV_MEDIA_TYPE) {
    const query = parseInput(exportPlantsQuerySchema, readQuery(request), "(query)");
    const headers = { vary: VARY, ...(await totalCount(request, query)) };
    return csvResponse(request.method === "HEAD" ? null : plantCsv(query), { filename: "plants.csv", requestId, headers });
  }
  const query = parseInput(listPlantsQuerySchema, readQuery(request), "(query)");
  const page = await listPlants(query);
  const { tag, q, limit } = query;
  const link = page.nextAfter === undefined ? undefined : nextPageLink(request, { ...(tag && { tag }), ...(q && { q }), limit: String(limit), after: String(page.nextAfter) });
  return jsonResponse(page.plants, { headers: { vary: VARY, ...(await totalCount(request, query)), ...(link && { link }) } });
});

/**
 * The count of the whole match, only when asked (Prefer: count=exact, RFC
 * 7240), since it reads every match where a page reads one page. PostgREST
 * answers it in Content-Range (`0-24/3573458`), but a range needs an offset,
 * which cursor paging does not have, and Content-Range on a 200 is not what
 * RFC 9110 defines it for; X-Total-Count is the header that clients of
 * json-server and many admin front ends already read.
 */
async function totalCount(request: Request, filter: PlantFilter): Promise<Record<string, string>> {
  if (!prefersExactCount(request)) return {};
  return { "x-total-count": String(await countPlants({ tag: filter.tag, q: filter.q })), "preference-applied": EXACT_COUNT };
}

export const POST = apiRoute(operations.createPlant, async ({ request, requestId, caller }) => {
  const input = parseInput(newPlantSchema, await readJsonBody(request));
  return createdPlantResponse(await createPlant(input, requestAttribution(caller, request, requestId)));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/plants");

import { plantHistoryPage } from "@/lib/activity/plant-history";
import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";
import { nextPageLink } from "@/lib/http/link-header";
import { parseInput } from "@/lib/http/parse-input";
import { readQuery } from "@/lib/http/query-params";
import { plantHistoryQuerySchema, plantPathSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

// A plant's history (issue 22): its activity records, newest first, paged by Link.
export const GET = apiRoute(operations.getPlantHistory, async ({ request, params }) => {
  const { id } = parseInput(plantPathSchema, params, "(path)");
  const { limit, before } = parseInput(plantHistoryQuerySchema, readQuery(request), "(query)");
  const page = await plantHistoryPage(id, { limit, before });
  const link = page.next === null ? undefined : nextPageLink(request, { limit: String(limit), before: String(page.next) });
  return jsonResponse(page.records, { headers: link ? { link } : {} });
});

export const { PUT, POST, PATCH, DELETE, OPTIONS } = otherMethods("/plants/{id}/history");

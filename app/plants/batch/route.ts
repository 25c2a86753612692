import { requestAttribution } from "@/lib/activity/request-attribution";
import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";
import { readPlantBatch } from "@/lib/http/plant-batch-body";
import { answerPlantBatch } from "@/lib/http/plant-batch-results";
import { createPlants } from "@/lib/plants/plant-queries";

export const dynamic = "force-dynamic";

// Many plants at once (issue 10): the batch is refused as a whole only when it
// cannot be read; otherwise 200, with one result per item in the batch's order.
export const POST = apiRoute(operations.createPlants, async ({ request, requestId, caller }) => {
  const by = requestAttribution(caller, request, requestId);
  return jsonResponse(await answerPlantBatch(await readPlantBatch(request), (plants) => createPlants(plants, by)));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/plants/batch");

import { ApiError, jsonResponse, parseInput } from "@/lib/api-error";
import { apiRoute, otherMethods } from "@/lib/api-route";
import { requireScope } from "@/lib/bearer-auth";
import { deletePlant, getPlant } from "@/lib/plants";
import { plantPathSchema } from "@/lib/validations/plant";

export const dynamic = "force-dynamic";

// Spelled out rather than Next's generated RouteContext, so `npm run typecheck` works before the first build.
type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (request, context: Context) => {
  await requireScope(request, "plants:read");
  const { id } = parseInput(plantPathSchema, await context.params, "(path)");
  const plant = await getPlant(id);
  if (!plant) throw plantNotFound(id);
  return jsonResponse(plant);
});

export const DELETE = apiRoute(async (request, context: Context) => {
  await requireScope(request, "plants:write");
  const { id } = parseInput(plantPathSchema, await context.params, "(path)");
  if (!(await deletePlant(id))) throw plantNotFound(id);
  return new Response(null, { status: 204 });
});

// Next answers HEAD with the GET handler (without the body), so HEAD is allowed.
export const { PUT, PATCH, POST, OPTIONS } = otherMethods(["GET", "HEAD", "DELETE"]);

function plantNotFound(id: bigint): ApiError {
  return new ApiError(404, `no plant has id ${id}`);
}

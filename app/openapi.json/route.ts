import { jsonResponse } from "@/lib/api-error";
import { apiRoute, otherMethods } from "@/lib/api-route";
import { buildOpenApiDocument } from "@/lib/openapi";

export const dynamic = "force-dynamic";

// Built once per server process, on the first request, from the zod schemas the handlers use.
let built: ReturnType<typeof buildOpenApiDocument> | undefined;

// Public, like the API reference at /docs: it describes the API, it holds no data.
export const GET = apiRoute(async () => {
  built ??= buildOpenApiDocument();
  return jsonResponse(built);
});

// Next answers HEAD with the GET handler (without the body), so HEAD is allowed.
export const { PUT, PATCH, POST, DELETE, OPTIONS } = otherMethods(["GET", "HEAD"]);

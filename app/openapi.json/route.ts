import { operations } from "@/lib/api/operations";
import { buildOpenApiDocument, type OpenApiDocument } from "@/lib/api/openapi-document";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";

export const dynamic = "force-dynamic";

// Built once per server process, on the first request, from the zod schemas the handlers use.
let built: OpenApiDocument | undefined;

// Public, like the API reference at /docs: it describes the API, it holds no data.
export const GET = apiRoute(operations.getOpenApiDocument, async () => {
  built ??= buildOpenApiDocument();
  return jsonResponse(built);
});

export const { PUT, PATCH, POST, DELETE, OPTIONS } = otherMethods("/openapi.json");

import path from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { buildOpenApiDocument } from "@/lib/api/openapi-document";

// TypeScript types for the API, generated from the OpenAPI document by
// openapi-typescript, as any client would generate them. Checked in (written by
// `npm run api:types`) so the typed-client test is type-checked by `npm run
// typecheck`; the test also regenerates them and fails if they are stale.

export const API_TYPES_FILE = path.join(import.meta.dirname, "plant-store-api.ts");

const HEADER = "// Generated from the OpenAPI document by `npm run api:types` (openapi-typescript); do not edit.\n\n";

const BIGINT = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);

export async function renderApiTypes(): Promise<string> {
  // The document as a client receives it: JSON text, read by a JSON parser.
  const document = JSON.parse(stringifyExactJson(buildOpenApiDocument())) as OpenAPI3;
  const nodes = await openapiTS(document, {
    // int64 values are bigints on our side of the wire, so a number never rounds an id.
    transform: (schema) => (schema.format === "int64" ? BIGINT : undefined),
  });
  return HEADER + astToString(nodes);
}

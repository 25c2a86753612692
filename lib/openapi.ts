import { z } from "zod";
import { MAX_BODY_BYTES } from "@/lib/json-body";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { listPlantsQuerySchema, newPlantSchema, plantPathSchema, plantSchema } from "@/lib/validations/plant";

// The OpenAPI 3.1 document of the API, built from the zod schemas the route
// handlers parse with, so the document cannot drift from the code. Request
// inputs are described as the client writes them (zod's "input" side),
// answers as the server writes them ("output").

type JsonSchema = { [keyword: string]: unknown };

/**
 * JSON Schema has no bigint; on the wire our bigints are JSON integers in the
 * int64 range (OpenAPI's int64 format). zod round-trips its result through
 * JSON.stringify, which throws on a bigint, so the bounds leave here as
 * decimal text and exactInt64Bounds makes them exact bigints again.
 */
function int64(ctx: { zodSchema: z.core.$ZodType }): JsonSchema | "throw" {
  if (!(ctx.zodSchema instanceof z.ZodBigInt)) return "throw";
  const { minValue, maxValue } = ctx.zodSchema;
  return {
    type: "integer",
    format: "int64",
    ...(minValue !== null && { minimum: String(minValue) }),
    ...(maxValue !== null && { maximum: String(maxValue) }),
  };
}

/** Bounds that int64() wrote as text become bigints, which jsonResponse writes as exact JSON integers. */
function exactInt64Bounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(exactInt64Bounds);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      (key === "minimum" || key === "maximum") && typeof value === "string" ? BigInt(value) : exactInt64Bounds(value),
    ]),
  );
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const converted: JsonSchema = { ...z.toJSONSchema(schema, { io, unrepresentable: int64 }) };
  // The document's dialect (OpenAPI 3.1: JSON Schema 2020-12) applies; no per-schema $schema.
  delete converted.$schema;
  return exactInt64Bounds(converted) as JsonSchema;
}

/**
 * OpenAPI parameters from a strict object schema of URL parameters. The
 * schema describes the decoded value (OpenAPI's meaning of a parameter
 * schema: `limit` is an integer, not the text "20"); whether a parameter is
 * required comes from what a client must send (the input side).
 */
function parameters(schema: z.ZodType, location: "path" | "query"): JsonSchema[] {
  const decoded = jsonSchema(schema, "output") as { properties: Record<string, JsonSchema> };
  const sent = jsonSchema(schema, "input") as { required?: string[] };
  return Object.entries(decoded.properties).map(([name, { description, ...valueSchema }]) => ({
    name,
    in: location,
    required: sent.required?.includes(name) ?? false,
    description,
    schema: valueSchema,
  }));
}

const json = (schema: JsonSchema) => ({ "application/json": { schema } });
const ref = (kind: "schemas" | "responses", name: string) => ({ $ref: `#/components/${kind}/${name}` });

type ResponseHeaders = Record<string, { description: string }>;

const CHALLENGE: ResponseHeaders = { "WWW-Authenticate": { description: 'The RFC 6750 challenge, e.g. Bearer realm="plant-store", error="invalid_token"' } };

/** Answers shared by the operations; each operation lists the ones it can give. */
const ERRORS = {
  BadRequest: { status: 400, description: "The request is malformed: the message says how, and `details` names each input that failed validation" },
  Unauthorized: { status: 401, description: "No bearer token, or one that is malformed, unknown, expired or revoked", headers: CHALLENGE },
  Forbidden: { status: 403, description: "The bearer token lacks the scope this operation needs", headers: CHALLENGE },
  NotFound: { status: 404, description: "No plant has this id" },
  MethodNotAllowed: {
    status: 405,
    description: "The path does not support the method; Allow lists the methods it does",
    headers: { Allow: { description: "The methods the path supports" } },
  },
  Conflict: { status: 409, description: "A plant with this id already exists with a different name or tag" },
  PayloadTooLarge: { status: 413, description: `The request body is larger than ${MAX_BODY_BYTES} bytes` },
  UnsupportedMediaType: { status: 415, description: "The request body is not application/json in UTF-8" },
  InternalError: {
    status: 500,
    description: "An unexpected error; X-Request-Id identifies it in the server log",
    headers: { "X-Request-Id": { description: "The request's id in the server log" } },
  },
} satisfies Record<string, { status: number; description: string; headers?: ResponseHeaders }>;

type ErrorName = keyof typeof ERRORS;

function errorResponse({ description, ...rest }: { description: string; headers?: ResponseHeaders }): JsonSchema {
  // Each header listed is sent on every such answer, hence required.
  const headers = rest.headers && Object.fromEntries(Object.entries(rest.headers).map(([name, header]) => [name, { ...header, required: true, schema: { type: "string" } }]));
  return { description, ...(headers && { headers }), content: json(ref("schemas", "Error")) };
}

function errors(...names: ErrorName[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [String(ERRORS[name].status), ref("responses", name)]));
}

const AUTH_ERRORS = ["Unauthorized", "Forbidden", "InternalError"] as const;

export function buildOpenApiDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Plant Store",
      version: "1.0.0",
      description: [
        "Record the plants a store holds.",
        "",
        "Ids are int64 and exact: ids beyond 2^53 (such as 9007199254740993) are JSON integers written to the last digit.",
        "JavaScript's JSON.parse rounds them; parse answers with a lossless JSON parser (e.g. lossless-json) and keep ids as bigint.",
        "",
        "Every answer other than 2xx has the Error body. Methods a path does not support answer 405 (`components/responses/MethodNotAllowed`) with Allow.",
      ].join("\n"),
      license: { name: "MIT", identifier: "MIT" },
    },
    security: [{ bearerAuth: [] }],
    paths: {
      "/plants": {
        get: {
          operationId: "listPlants",
          summary: "List plants",
          description: [
            "The store's plants in ascending id order, `limit` at a time. While more remain, the answer's Link header",
            '(RFC 8288) names the next page: `Link: </plants?limit=20&after=42>; rel="next"`. Unknown query parameters',
            "and repeated ones are refused with 400. Needs scope plants:read (plants:write includes it).",
          ].join(" "),
          parameters: parameters(listPlantsQuerySchema, "query"),
          responses: {
            "200": {
              description: "A page of plants",
              headers: {
                Link: {
                  description: 'RFC 8288 link to the next page (rel="next"), present while more plants remain',
                  schema: { type: "string" },
                },
              },
              content: json({ type: "array", items: ref("schemas", "Plant") }),
            },
            ...errors("BadRequest", ...AUTH_ERRORS),
          },
        },
        post: {
          operationId: "createPlant",
          summary: "Create a plant",
          description: [
            "Stores a new plant and answers it. Repeating an identical request answers the stored plant and changes nothing;",
            "the same id with another name or tag is a 409. Needs scope plants:write.",
          ].join(" "),
          requestBody: { required: true, content: json(ref("schemas", "NewPlant")) },
          responses: {
            "200": { description: "The stored plant", content: json(ref("schemas", "Plant")) },
            ...errors("BadRequest", ...AUTH_ERRORS, "Conflict", "PayloadTooLarge", "UnsupportedMediaType"),
          },
        },
      },
      "/plants/{id}": {
        parameters: parameters(plantPathSchema, "path"),
        get: {
          operationId: "getPlant",
          summary: "Get a plant",
          description: "The plant with this id. The id is written as a plain decimal integer (no leading zeros or +). Needs scope plants:read.",
          responses: {
            "200": { description: "The plant", content: json(ref("schemas", "Plant")) },
            ...errors("BadRequest", ...AUTH_ERRORS, "NotFound"),
          },
        },
        delete: {
          operationId: "deletePlant",
          summary: "Delete a plant",
          description: "Deletes the plant with this id. Needs scope plants:write.",
          responses: {
            "204": { description: "Deleted; no body" },
            ...errors("BadRequest", ...AUTH_ERRORS, "NotFound"),
          },
        },
      },
    },
    components: {
      schemas: {
        Plant: jsonSchema(plantSchema, "output"),
        NewPlant: jsonSchema(newPlantSchema, "input"),
        Error: jsonSchema(apiErrorBodySchema, "output"),
      },
      responses: Object.fromEntries(Object.entries(ERRORS).map(([name, error]) => [name, errorResponse(error)])),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API token from the operator CLI (npm run token -- create) or the staff app, sent as Authorization: Bearer <token>",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

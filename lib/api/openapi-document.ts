import { z } from "zod";
import { type OperationDeclaration, type OperationName, operationErrors, OPERATIONS } from "@/lib/api/operations";
import { ERROR_KINDS, type ErrorKindName } from "@/lib/http/error-catalogue";
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

/** An error kind of the catalogue as a reusable response; each header listed is sent on every such answer, hence required. */
function errorResponse(kind: ErrorKindName): JsonSchema {
  const { title, description, ...rest } = ERROR_KINDS[kind];
  const headers =
    "headers" in rest
      ? Object.fromEntries(Object.entries(rest.headers).map(([name, about]) => [name, { description: about, required: true, schema: { type: "string" } }]))
      : undefined;
  return { description: `${title}: ${description}`, ...(headers && { headers }), content: json(ref("schemas", "Error")) };
}

/** What the document says of an operation beyond its declaration: words, inputs and its successful answers. */
type OperationText = {
  summary: string;
  description: string;
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
};

// The public document route (/openapi.json) describes the API, and the probes
// serve the load balancer; neither is part of the API.
type DocumentedOperation = Exclude<OperationName, "getOpenApiDocument" | "getLiveness" | "getReadiness">;

function operationTexts(): Record<DocumentedOperation, OperationText> {
  return {
    listPlants: {
      summary: "List plants",
      description: [
        "The store's plants in ascending id order, `limit` at a time. While more remain, the answer's Link header",
        '(RFC 8288) names the next page: `Link: </plants?limit=20&after=42>; rel="next"`. Unknown query parameters',
        "and repeated ones are refused with 400.",
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
      },
    },
    createPlant: {
      summary: "Create a plant",
      description: [
        "Stores a new plant and answers it. Repeating an identical request answers the stored plant and changes nothing;",
        "the same id with another name or tag is a 409.",
      ].join(" "),
      requestBody: { required: true, content: json(ref("schemas", "NewPlant")) },
      responses: { "200": { description: "The stored plant", content: json(ref("schemas", "Plant")) } },
    },
    getPlant: {
      summary: "Get a plant",
      description: "The plant with this id. The id is written as a plain decimal integer (no leading zeros or +).",
      responses: { "200": { description: "The plant", content: json(ref("schemas", "Plant")) } },
    },
    deletePlant: {
      summary: "Delete a plant",
      description: "Deletes the plant with this id.",
      responses: { "204": { description: "Deleted; no body" } },
    },
  };
}

/** The scope sentence every operation's description ends with; plants:write includes plants:read. */
function scopeSentence(scope: OperationDeclaration["scope"]): string {
  if (scope === null) return "Public: no token needed.";
  return `Needs scope ${scope}${scope === "plants:read" ? " (plants:write includes it)" : ""}.`;
}

function isDocumented(name: string, texts: Record<DocumentedOperation, OperationText>): name is DocumentedOperation {
  return name in texts;
}

// Parameters in a path template, shared by the path's operations.
const PATH_PARAMETERS: Record<string, z.ZodType> = { "/plants/{id}": plantPathSchema };

type PathItem = { parameters?: JsonSchema[] } & { [method: string]: unknown };

/** The document's paths: every documented operation under its path, with the id, security and errors its declaration gives. */
function paths(): Record<string, PathItem> {
  const texts = operationTexts();
  const byPath: Record<string, PathItem> = {};
  for (const declaration of OPERATIONS) {
    if (!isDocumented(declaration.operation, texts)) continue;
    const { summary, description, responses, ...inputs } = texts[declaration.operation];
    const errors = Object.fromEntries(operationErrors(declaration).map((kind) => [String(ERROR_KINDS[kind].status), ref("responses", kind)]));
    const shared = PATH_PARAMETERS[declaration.path];
    const item = (byPath[declaration.path] ??= shared ? { parameters: parameters(shared, "path") } : {});
    item[declaration.method.toLowerCase()] = {
      operationId: declaration.operation,
      summary,
      description: `${description} ${scopeSentence(declaration.scope)}`,
      // OpenAPI 3.1 lets a non-OAuth scheme list the roles an operation needs: here, the token's scope.
      security: declaration.scope === null ? [] : [{ bearerAuth: [declaration.scope] }],
      ...inputs,
      responses: { ...responses, ...errors },
    };
  }
  return byPath;
}

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
    paths: paths(),
    components: {
      schemas: {
        Plant: jsonSchema(plantSchema, "output"),
        NewPlant: jsonSchema(newPlantSchema, "input"),
        Error: jsonSchema(apiErrorBodySchema, "output"),
      },
      responses: Object.fromEntries(Object.keys(ERROR_KINDS).map((kind) => [kind, errorResponse(kind as ErrorKindName)])),
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

import { z } from "zod";
import { type OperationDeclaration, type OperationName, operationErrors, OPERATIONS } from "@/lib/api/operations";
import { ERROR_KINDS, type ErrorKindName } from "@/lib/http/error-catalogue";
import { EXACT_COUNT } from "@/lib/http/prefer-header";
import { apiErrorBodySchema } from "@/lib/validations/api-error";
import { MERGE_PATCH_MEDIA_TYPES } from "@/lib/http/json-body";
import { listPlantsQuerySchema, newPlantSchema, plantEventsQuerySchema, plantHistoryQuerySchema, plantPatchSchema, plantPathSchema, plantSchema } from "@/lib/validations/plant";
import { plantActivitySchema } from "@/lib/validations/plant-history";
import { PLANT_BATCH_MAX, plantBatchCsvSchema, plantBatchResultSchema, plantBatchSchema } from "@/lib/validations/plant-batch";
import { plantEventSchema, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, webhookTestEventSchema } from "@/lib/validations/webhook";

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
/** A header parameter, its value a string. */
const header = (name: string, required: boolean, description: string) => ({ name, in: "header", required, description, schema: { type: "string" } });
const ref = (kind: "schemas" | "responses", name: string) => ({ $ref: `#/components/${kind}/${name}` });

// Versions and conditional requests (RFC 9110 sections 8.8.3 and 13.1): every answer carrying one plant has its ETag.
const ETAG_HEADER = {
  ETag: {
    description: "The plant's version, a strong entity-tag: send it in If-Match to change or delete this very version, or in If-None-Match to get the plant only once it changed",
    required: true,
    schema: { type: "string" },
  },
};
// Every operation on one plant evaluates both, in RFC 9110 section 13.2.2's order: If-Match first (issue 20).
const IF_MATCH = header(
  "If-Match",
  false,
  [
    "Act only if the plant is at one of these versions (ETags, comma-separated, compared strongly: weak ones never match),",
    "or `*` for any version; otherwise 412 with the current ETag, and nothing changes. Evaluated before If-None-Match;",
    "without either, the request acts on whatever version is current.",
  ].join(" "),
);
const IF_NONE_MATCH = header(
  "If-None-Match",
  false,
  [
    "Act only if the plant is at none of these versions (ETags, comma-separated, compared weakly: W/ is ignored);",
    "`*` names any version. Otherwise a GET or HEAD answers 304 without a body, and a change or delete 412 with the",
    "current ETag, changing nothing.",
  ].join(" "),
);

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
      summary: "List, find, count and export plants",
      description: [
        [
          "The store's plants in ascending id order, `limit` at a time. While more remain, the answer's Link header",
          '(RFC 8288) names the next page: `Link: </plants?limit=20&after=42>; rel="next"`, keeping `tag` and `q`.',
          "`tag` keeps plants with exactly that tag; `q` keeps plants whose name contains the text, ignoring case",
          "(Unicode lowercase, the same on every database); together, plants matching both. An empty `tag=` or `q=` is",
          "refused (leave the parameter out to list every plant), as are unknown and repeated query parameters.",
        ],
        [
          "With `Prefer: count=exact` (RFC 7240) the answer carries the number of plants matching `tag` and `q`,",
          "on any page, in X-Total-Count, and `Preference-Applied: count=exact`; without it, nothing is counted.",
        ],
        [
          "With `Accept: text/csv` the answer is every matching plant as RFC 4180 CSV, streamed: a header row",
          "`id,name,tag`, CRLF after each record, ids as exact decimal integers, an empty tag cell for a plant without",
          "a tag. A name or tag that begins with =, +, - or @ (which a spreadsheet would run as a formula), or with ',",
          "is written with one ' in front; remove exactly that one to read it back. `after` resumes an export after the",
          "last id received; `limit` is refused with 400. The export is not a snapshot: plants changed while it runs",
          "may or may not be in it, but none appears twice. Errors are still JSON Error bodies. An Accept that allows",
          "neither application/json nor text/csv is answered 406.",
        ],
      ]
        .map((paragraph) => paragraph.join(" "))
        .join("\n\n"),
      parameters: [
        ...parameters(listPlantsQuerySchema, "query"),
        { ...header("Prefer", false, "count=exact: answer the number of matching plants in X-Total-Count (RFC 7240). Other preferences are ignored"), example: EXACT_COUNT },
      ],
      responses: {
        "200": {
          description: "A page of plants (JSON), or every matching plant (CSV)",
          headers: {
            Link: {
              description: 'RFC 8288 link to the next page (rel="next"), present while more plants remain (JSON only)',
              schema: { type: "string" },
            },
            "X-Total-Count": {
              description: "How many plants match tag and q, whatever the page; present only when Prefer asked for count=exact",
              schema: { type: "integer", format: "int64", minimum: 0 },
            },
            "Preference-Applied": {
              description: "count=exact when X-Total-Count is given (RFC 7240)",
              schema: { type: "string" },
            },
            "Content-Disposition": {
              description: 'attachment; filename="plants.csv" (CSV only)',
              schema: { type: "string" },
            },
          },
          content: {
            ...json({ type: "array", items: ref("schemas", "Plant") }),
            "text/csv": {
              schema: { type: "string", description: "RFC 4180 CSV, header row id,name,tag; sent as text/csv; charset=utf-8; header=present" },
              example: "id,name,tag\r\n42,Boston fern,indoor\r\n9007199254740993,\"'=1+1, a formula\",\r\n",
            },
          },
        },
      },
    },
    createPlant: {
      summary: "Create a plant",
      description: [
        "Stores a new plant and answers it. Repeating an identical request answers the stored plant and changes nothing,",
        "with `Idempotent-Replayed: true`, so a client that retries can tell it from a plant stored now; the same id with",
        "another name or tag is a 409.",
      ].join(" "),
      requestBody: { required: true, content: json(ref("schemas", "NewPlant")) },
      responses: {
        "200": {
          description: "The stored plant, whether stored now or already stored",
          headers: {
            ...ETAG_HEADER,
            "Idempotent-Replayed": {
              description: "true when an identical plant was already stored and nothing was written (a repeated request); absent when the plant was stored now",
              schema: { type: "string", enum: ["true"] },
            },
          },
          content: json(ref("schemas", "Plant")),
        },
      },
    },
    getPlant: {
      summary: "Get a plant",
      description: "The plant with this id. The id is written as a plain decimal integer (no leading zeros or +).",
      parameters: [IF_MATCH, IF_NONE_MATCH],
      responses: {
        "200": { description: "The plant", headers: ETAG_HEADER, content: json(ref("schemas", "Plant")) },
        "304": { description: "Not Modified: the plant is at a version If-None-Match names; no body", headers: ETAG_HEADER },
      },
    },
    createPlants: {
      summary: "Create many plants",
      description: [
        `Stores up to ${PLANT_BATCH_MAX} plants in one request, as a JSON array of NewPlants or as CSV, and answers one result`,
        "per item in the batch's order. Each item is decided as a single create would decide it: stored, already stored",
        "(an identical plant: nothing written), a conflict (the id is taken by another plant) or invalid (with the details",
        "a single create would answer); of two items with one id, the first decides. The valid items are stored even when",
        "others fail, all in one transaction. Only a batch that cannot be read (not a list, too long, malformed CSV) is",
        "refused as a whole, and then nothing is stored.",
      ].join(" "),
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: { ...jsonSchema(plantBatchSchema, "input"), items: ref("schemas", "NewPlant") } },
          "text/csv": { schema: jsonSchema(plantBatchCsvSchema, "input"), example: "id,name,tag\n1,Monstera deliciosa,tropical\n2,\"Fern, Boston\",\n" },
        },
      },
      responses: {
        "200": { description: "One result per item, in the batch's order", content: json({ type: "array", items: ref("schemas", "PlantBatchResult") }) },
      },
    },
    updatePlant: {
      summary: "Change a plant",
      description: [
        "Changes the plant's name or tag by a JSON Merge Patch (RFC 7396): a field present replaces the stored one,",
        '`"tag": null` removes the tag, a field absent stays. The plant that results must follow the same rules as a new one;',
        "an id, if sent, must be the plant's own, and unknown fields are refused. A patch that changes nothing answers the",
        "plant and writes nothing. To change only the version you read, send its ETag in If-Match: if someone changed the",
        "plant meanwhile, the answer is 412 with the current ETag, and nothing changes.",
      ].join(" "),
      parameters: [IF_MATCH, IF_NONE_MATCH],
      requestBody: {
        required: true,
        content: Object.fromEntries(MERGE_PATCH_MEDIA_TYPES.map((type) => [type, { schema: ref("schemas", "PlantPatch") }])),
      },
      responses: { "200": { description: "The plant as it is now", headers: ETAG_HEADER, content: json(ref("schemas", "Plant")) } },
    },
    deletePlant: {
      summary: "Delete a plant",
      description: "Deletes the plant with this id; with If-Match, only if it is at a version named there.",
      parameters: [IF_MATCH, IF_NONE_MATCH],
      responses: { "204": { description: "Deleted; no body" } },
    },
    getPlantHistory: {
      summary: "A plant's history",
      description: [
        "Every change to the plant the app made, newest first, `limit` at a time: created (one by one, in a batch or an import),",
        "changed (the fields that changed, before and after), deleted (the plant whole, as it was) and restored, each with who",
        "made it (a person, or an API token and the person it belongs to) and the request's id. While older records remain, the",
        'Link header (RFC 8288) names the next page: `Link: </plants/42/history?limit=20&before=1234>; rel="next"`.',
        "A deleted plant's history answers too, ending with its delete; an id that was never a plant is 404.",
        "Writes made straight into the database by other programs are not recorded.",
      ].join(" "),
      parameters: parameters(plantHistoryQuerySchema, "query"),
      responses: {
        "200": {
          description: "A page of the plant's records, newest first",
          headers: { Link: { description: 'RFC 8288 link to the next page (rel="next"), present while older records remain', schema: { type: "string" } } },
          content: json({ type: "array", items: ref("schemas", "PlantActivity") }),
        },
      },
    },
    followPlantChanges: {
      summary: "Follow the changes to plants as they happen",
      description: [
        "Server-Sent Events (text/event-stream): one event per change to a plant, from the API, the staff app, an import, a",
        "CLI or a restore, in commit order. Each has `id:` its position in the store's sequence of changes (an int64,",
        "growing in commit order with no gaps), `event:` plant.created, plant.updated or plant.deleted, and `data:` the",
        "JSON the webhooks carry for it, `{\"type\",\"timestamp\",\"data\"}`, ids exact above 2^53 (parse them as such).",
        "Without a position the stream starts at now. To resume, send the last id seen in Last-Event-ID (EventSource does",
        "so by itself) or as ?after=: every change after it is sent, then the stream goes on live, none missed or repeated,",
        "across restarts, workers and instances. A position older than the changes kept (CHANGE_FEED_RETENTION, 7 days by",
        "default) or past the newest is 410: re-read the plants, then follow from now. The stream sends `retry:` and a",
        "comment at least every 10 s; it ends within a second of its token being revoked or expiring, its session ending",
        "or its account being deactivated, when the server stops, and when the client reads too slowly (it resumes from",
        "its position when it comes back). Too many open streams for one token or address is 429.",
      ].join(" "),
      parameters: [header("Last-Event-ID", false, "The position to resume after: the id of the last event received"), ...parameters(plantEventsQuerySchema, "query")],
      responses: {
        "200": {
          description: "The stream of changes; it stays open",
          content: {
            "text/event-stream": {
              schema: { type: "string", description: "Events as the WHATWG HTML standard's Server-Sent Events define them" },
              example:
                'retry: 2000\n: open\n\nid: 42\nevent: plant.created\ndata: {"type":"plant.created","timestamp":"2026-11-29T09:20:00.000Z","data":{"id":9007199254740993,"name":"Monstera deliciosa","tag":"tropical"}}\n\n',
            },
          },
        },
      },
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
const PATH_PARAMETERS: Record<string, z.ZodType> = { "/plants/{id}": plantPathSchema, "/plants/{id}/history": plantPathSchema };

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

// What every delivery carries besides its body (Standard Webhooks 1.0).
const WEBHOOK_HEADERS = {
  "webhook-id": "The event's id (msg_…), the same on every attempt and resend: receivers deduplicate by it",
  "webhook-timestamp": "When this attempt was signed, in Unix seconds: refuse one far from your clock (replays)",
  "webhook-signature":
    "v1, then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's secret (its base64 part after whsec_); during a secret rotation, one such signature per secret, space-separated",
};

/**
 * The events the app sends to webhook endpoints (OpenAPI 3.1's `webhooks`):
 * each a POST of its body to the endpoint's URL, answered 2xx when received.
 */
function webhooks(): Record<string, PathItem> {
  const events: [string, z.ZodType, string][] = [
    ...WEBHOOK_EVENT_TYPES.map((type): [string, z.ZodType, string] => [type, plantEventSchema(type), `A ${type} event`]),
    [WEBHOOK_TEST_EVENT, webhookTestEventSchema, "A test event an owner asked for"],
  ];
  const headers = Object.entries(WEBHOOK_HEADERS).map(([name, description]) => header(name, true, description));
  return Object.fromEntries(
    events.map(([type, schema, summary]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary,
          description: [
            "Sent to each enabled endpoint that asked for this event, at least once: retried on any answer but 2xx",
            "(on the documented schedule, or after Retry-After), never redirected; 410 Gone disables the endpoint.",
            "Verify the signature (Standard Webhooks), then read the body with a lossless JSON parser: ids are exact int64.",
          ].join(" "),
          parameters: headers,
          requestBody: { required: true, content: json(jsonSchema(schema, "output")) },
          responses: {
            "2XX": { description: "Received; the delivery is done" },
            "410": { description: "Gone: the app disables this endpoint and sends it nothing more" },
          },
          security: [],
        },
      },
    ]),
  );
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
        "On any path, a request the server cannot read as HTTP/1.1 is answered before any operation, and its connection closed: 400 (malformed), 408 (`RequestTimeout`: too slow),",
        "413 (chunk extensions too large), 417 (`ExpectationFailed`: an Expect other than 100-continue), 431 (`HeaderFieldsTooLarge`) or 505 (`HttpVersionNotSupported`).",
      ].join("\n"),
      license: { name: "MIT", identifier: "MIT" },
    },
    security: [{ bearerAuth: [] }],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      schemas: {
        Plant: jsonSchema(plantSchema, "output"),
        NewPlant: jsonSchema(newPlantSchema, "input"),
        PlantPatch: jsonSchema(plantPatchSchema, "input"),
        Error: jsonSchema(apiErrorBodySchema, "output"),
        PlantBatchResult: jsonSchema(plantBatchResultSchema, "output"),
        PlantActivity: jsonSchema(plantActivitySchema, "output"),
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

import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { parseExactJson, stringifyExactJson } from "@/lib/json/exact-json";
import { buildOpenApiDocument } from "@/lib/api/openapi-document";
import { operationErrors, OPERATIONS as DECLARATIONS, SERVER_ERRORS } from "@/lib/api/operations";
import { ERROR_KINDS } from "@/lib/http/error-catalogue";
import { newPlantSchema, plantPatchSchema } from "@/lib/validations/plant";
import { asJsonNumbers } from "@/test/support/openapi-contract";

// The document itself: valid OpenAPI 3.1, the contract's names, and schemas
// that say what the zod schemas behind them accept. (The served copy is
// checked against real answers by openapi-contract.test.ts.)

// What these tests read of the document, as a JSON client sees it.
type DocumentJson = {
  openapi: string;
  info: { version: string; license: unknown };
  security: unknown;
  paths: Record<string, Record<string, { operationId?: string; security?: unknown; responses: Record<string, { $ref?: string }> }>>;
  webhooks: Record<string, { post: { parameters: { name: string; in: string; required: boolean }[]; requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } }>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    responses: Record<string, { description: string; headers?: Record<string, { required: boolean }>; content?: Record<string, { schema?: unknown }> }>;
    securitySchemes: Record<string, unknown>;
  };
};

const text = stringifyExactJson(buildOpenApiDocument());
const document = JSON.parse(text) as DocumentJson;

const OPERATIONS = [
  ["/plants", "get"],
  ["/plants", "post"],
  ["/plants/batch", "post"],
  ["/plants/{id}", "get"],
  ["/plants/{id}", "patch"],
  ["/plants/{id}", "delete"],
] as const;

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("keeps the contract's names, version and license", () => {
    expect(document.info).toMatchObject({ version: "1.0.0", license: { name: "MIT", identifier: "MIT" } });
    expect(Object.keys(document.components.schemas).sort()).toEqual(["Error", "NewPlant", "Plant", "PlantActivity", "PlantBatchResult", "PlantPatch"]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it("declares every operation, each answering errors with the Error schema", () => {
    for (const [path, method] of OPERATIONS) {
      const responses = document.paths[path]?.[method]?.responses ?? {};
      const errorStatuses = Object.keys(responses).filter((status) => Number(status) >= 400);
      expect(errorStatuses, `${method} ${path}`).toEqual(expect.arrayContaining(["400", "401", "403", "500"]));
      for (const status of errorStatuses) {
        const name = responses[status]?.$ref?.split("/").at(-1) ?? "";
        expect(document.components.responses[name]?.content?.["application/json"]?.schema, `${method} ${path} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("writes the int64 range of ids exactly", () => {
    expect(text).toContain('"format":"int64","minimum":-9223372036854775808,"maximum":9223372036854775807');
  });

  it("declares the webhook events, each with the Standard Webhooks headers and a body whose data is the Plant", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(["plant.created", "plant.deleted", "plant.updated", "webhook.test"]);
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      expect(post.parameters.map(({ name, in: where, required }) => `${where} ${name} ${required}`), type).toEqual([
        "header webhook-id true",
        "header webhook-timestamp true",
        "header webhook-signature true",
      ]);
      const body = post.requestBody.content["application/json"]?.schema as { properties: Record<string, unknown>; required: string[] };
      expect(body.required, type).toEqual(["type", "timestamp", "data"]);
      expect(body.properties.type, type).toEqual({ type: "string", const: type });
    }
    const plantEvent = document.webhooks["plant.created"]?.post.requestBody.content["application/json"]?.schema as { properties: { data: unknown } };
    // The same schema as the API's Plant, but for the words that describe it.
    const withoutDescription = (schema: unknown) => ({ ...(schema as Record<string, unknown>), description: undefined });
    expect(withoutDescription(plantEvent.properties.data)).toEqual(withoutDescription(document.components.schemas.Plant));
  });
});

// The document's operations are the declarations of lib/api/operations.ts, and
// its error answers the kinds of lib/http/error-catalogue.ts. That the built
// app really answers every status the document declares, for every operation,
// is proven with real requests by test/http/openapi-contract.test.ts.
describe("operations and errors in the document", () => {
  const documented = DECLARATIONS.filter((declaration) => document.paths[declaration.path]?.[declaration.method.toLowerCase()]);

  it("documents every declared API operation under its id, with its scope as its security", () => {
    expect(documented.map((declaration) => declaration.operation)).toEqual(["listPlants", "createPlant", "createPlants", "getPlant", "updatePlant", "deletePlant", "getPlantHistory", "followPlantChanges"]);
    for (const { operation, path, method, scope } of documented) {
      expect(document.paths[path]?.[method.toLowerCase()], operation).toMatchObject({ operationId: operation, security: [{ bearerAuth: [scope] }] });
    }
  });

  it("documents every error kind of the catalogue, with the headers it carries", () => {
    expect(Object.keys(document.components.responses).sort()).toEqual(Object.keys(ERROR_KINDS).sort());
    for (const [kind, entry] of Object.entries(ERROR_KINDS)) {
      const response = document.components.responses[kind]!;
      expect(response.description, kind).toMatch(new RegExp(`^${entry.title}: `));
      expect(Object.keys(response.headers ?? {}), kind).toEqual(Object.keys("headers" in entry ? entry.headers : {}));
    }
  });

  it("declares for each operation exactly the errors its declaration names, each under its kind's status", () => {
    for (const declaration of documented) {
      const responses = document.paths[declaration.path]![declaration.method.toLowerCase()]!.responses;
      const errors = Object.entries(responses).filter(([status]) => Number(status) >= 400);
      const declared = operationErrors(declaration).map((kind) => [String(ERROR_KINDS[kind].status), { $ref: `#/components/responses/${kind}` }]);
      expect(Object.fromEntries(errors), declaration.operation).toEqual(Object.fromEntries(declared));
    }
  });

  it("has no kind that no operation answers (405, 408, 417, 431 and 505 belong to every path)", () => {
    const answered = new Set<string>([...DECLARATIONS.flatMap(operationErrors), ...SERVER_ERRORS]);
    expect(Object.keys(ERROR_KINDS).filter((kind) => !answered.has(kind))).toEqual([]);
  });
});

// NewPlant in the document against newPlantSchema in the code, body by body.
// JSON Schema cannot say "not only whitespace", "no control characters" or
// "well-formed Unicode", so there the document accepts what the code refuses;
// KNOWN_GAPS lists exactly those, and any other disagreement fails.
const BODIES = [
  '{"id":1,"name":"fern"}',
  '{"id":9007199254740993,"name":"fern","tag":"indoor"}',
  '{"id":-9223372036854775808,"name":"fern"}',
  '{"id":1}',
  '{"name":"fern"}',
  '{"id":"1","name":"fern"}',
  '{"id":1.5,"name":"fern"}',
  '{"id":1,"name":""}',
  `{"id":1,"name":"${"a".repeat(200)}"}`,
  `{"id":1,"name":"${"a".repeat(201)}"}`,
  `{"id":1,"name":"${"🌵".repeat(200)}"}`,
  `{"id":1,"name":"fern","tag":"${"a".repeat(51)}"}`,
  '{"id":1,"name":"fern","tag":null}',
  '{"id":1,"name":"fern","color":"green"}',
  '{"id":1,"name":42}',
  "[]",
  '{"id":1,"name":"   "}',
  '{"id":1,"name":"fern\\u0007"}',
  '{"id":1,"name":"fern\\ud800"}',
];

const KNOWN_GAPS = ['{"id":1,"name":"   "}', '{"id":1,"name":"fern\\u0007"}', '{"id":1,"name":"fern\\ud800"}'];

describe("NewPlant in the document and the code", () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat("int64", { type: "number", validate: Number.isInteger });
  const documentAccepts = ajv.compile(document.components.schemas.NewPlant ?? {});

  it("accept and refuse the same bodies, but for what JSON Schema cannot say", () => {
    const disagreements = BODIES.filter((body) => {
      const value = parseExactJson(body);
      return documentAccepts(asJsonNumbers(value)) !== newPlantSchema.safeParse(value).success;
    });
    expect(disagreements).toEqual(KNOWN_GAPS);
  });
});

// PlantPatch likewise; here the document also cannot say that the patched
// plant must keep its name, nor that an id must be the path's.
const PATCHES = [
  "{}",
  '{"name":"fern"}',
  '{"tag":"indoor"}',
  '{"tag":null}',
  '{"id":9007199254740993,"name":"fern","tag":null}',
  '{"name":null}',
  '{"name":""}',
  `{"name":"${"a".repeat(201)}"}`,
  `{"tag":"${"🌵".repeat(50)}"}`,
  `{"tag":"${"a".repeat(51)}"}`,
  '{"tag":42}',
  '{"id":"1"}',
  '{"id":1.5}',
  '{"color":"green"}',
  "[]",
  "null",
  '{"name":"   "}',
  '{"tag":"fern\\u0007"}',
];

const PATCH_GAPS = ['{"name":"   "}', '{"tag":"fern\\u0007"}'];

describe("PlantPatch in the document and the code", () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat("int64", { type: "number", validate: Number.isInteger });
  const documentAccepts = ajv.compile(document.components.schemas.PlantPatch ?? {});

  it("accept and refuse the same patches, but for what JSON Schema cannot say", () => {
    const disagreements = PATCHES.filter((body) => {
      const value = parseExactJson(body);
      return documentAccepts(asJsonNumbers(value)) !== plantPatchSchema.safeParse(value).success;
    });
    expect(disagreements).toEqual(PATCH_GAPS);
  });

  it("is what updatePlant takes, as application/merge-patch+json and as application/json", () => {
    const body = document.paths["/plants/{id}"]?.patch as unknown as { requestBody: { required: boolean; content: Record<string, { schema: unknown }> } };
    expect(body.requestBody).toEqual({
      required: true,
      content: {
        "application/merge-patch+json": { schema: { $ref: "#/components/schemas/PlantPatch" } },
        "application/json": { schema: { $ref: "#/components/schemas/PlantPatch" } },
      },
    });
  });
});

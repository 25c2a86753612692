import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/lib/testing/app-server";
import { ContractChecker, type OpenApiJson } from "@/lib/testing/openapi-contract";

// The contract test: real requests to the built app, success and failure
// alike, and every answer checked against the OpenAPI document the app
// serves. The last test proves the table reaches every status the document
// declares for every operation.

type Auth = "write" | "read" | "scopeless" | "invalid" | "basic";

type Case = {
  name: string;
  method: string;
  /** The request path and query. */
  url: string;
  /** The document's path the request belongs to. */
  template: "/plants" | "/plants/{id}";
  auth?: Auth;
  body?: string;
  contentType?: string;
  /** NewPlant bodies stored (with the write token) before the request. */
  seed?: string[];
  status: number;
};

const json = "application/json";
const LIST = "/plants" as const;
const ONE = "/plants/{id}" as const;

const CASES: Case[] = [
  // GET /plants
  { name: "lists with a read token", method: "GET", url: "/plants", template: LIST, auth: "read", seed: ['{"id":101,"name":"fern","tag":"indoor"}'], status: 200 },
  { name: "lists with a write token", method: "GET", url: "/plants", template: LIST, auth: "write", status: 200 },
  { name: "lists one page of one (Link follows)", method: "GET", url: "/plants?limit=1", template: LIST, auth: "read", seed: ['{"id":102,"name":"ivy"}'], status: 200 },
  { name: "lists the largest page", method: "GET", url: "/plants?limit=100", template: LIST, auth: "read", status: 200 },
  { name: "lists after an id above 2^53", method: "GET", url: "/plants?after=9007199254740993", template: LIST, auth: "read", status: 200 },
  { name: "lists after the least int64", method: "GET", url: "/plants?after=-9223372036854775808&limit=5", template: LIST, auth: "read", status: 200 },
  { name: "refuses limit=0", method: "GET", url: "/plants?limit=0", template: LIST, auth: "read", status: 400 },
  { name: "refuses limit=101", method: "GET", url: "/plants?limit=101", template: LIST, auth: "read", status: 400 },
  { name: "refuses limit=abc", method: "GET", url: "/plants?limit=abc", template: LIST, auth: "read", status: 400 },
  { name: "refuses limit=1.5", method: "GET", url: "/plants?limit=1.5", template: LIST, auth: "read", status: 400 },
  { name: "refuses an empty limit", method: "GET", url: "/plants?limit=", template: LIST, auth: "read", status: 400 },
  { name: "refuses a repeated limit", method: "GET", url: "/plants?limit=1&limit=2", template: LIST, auth: "read", status: 400 },
  { name: "refuses limit=05", method: "GET", url: "/plants?limit=05", template: LIST, auth: "read", status: 400 },
  { name: "refuses limit=2147483648", method: "GET", url: "/plants?limit=2147483648", template: LIST, auth: "read", status: 400 },
  { name: "refuses after=abc", method: "GET", url: "/plants?after=abc", template: LIST, auth: "read", status: 400 },
  { name: "refuses after=2^63", method: "GET", url: "/plants?after=9223372036854775808", template: LIST, auth: "read", status: 400 },
  { name: "refuses an unknown parameter", method: "GET", url: "/plants?sort=name", template: LIST, auth: "read", status: 400 },
  // (Next.js itself drops a __proto__ parameter before the handler sees it.)
  { name: "refuses a constructor parameter", method: "GET", url: "/plants?constructor=1", template: LIST, auth: "read", status: 400 },
  { name: "lists nothing without a token", method: "GET", url: "/plants", template: LIST, status: 401 },
  { name: "lists nothing for a bad token", method: "GET", url: "/plants", template: LIST, auth: "invalid", status: 401 },
  { name: "lists nothing for Basic credentials", method: "GET", url: "/plants", template: LIST, auth: "basic", status: 401 },
  { name: "lists nothing for a token without plants:read", method: "GET", url: "/plants", template: LIST, auth: "scopeless", status: 403 },

  // POST /plants
  { name: "creates a plant", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":201,"name":"monstera","tag":"indoor"}', status: 200 },
  { name: "creates the greatest int64 id", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":9223372036854775807,"name":"max"}', status: 200 },
  { name: "creates the least int64 id", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":-9223372036854775808,"name":"min"}', status: 200 },
  { name: "answers an identical retry", method: "POST", url: "/plants", template: LIST, auth: "write", seed: ['{"id":202,"name":"aloe"}'], body: '{"id":202,"name":"aloe"}', status: 200 },
  { name: "refuses a plant without name", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":203}', status: 400 },
  { name: "refuses a string id", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":"204","name":"x"}', status: 400 },
  { name: "refuses a fractional id", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":204.5,"name":"x"}', status: 400 },
  { name: "refuses id 2^63", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":9223372036854775808,"name":"x"}', status: 400 },
  { name: "refuses an unknown field", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":205,"name":"x","color":"green"}', status: 400 },
  { name: "refuses a null tag", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":206,"name":"x","tag":null}', status: 400 },
  { name: "refuses malformed JSON", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":207,', status: 400 },
  { name: "refuses an empty body", method: "POST", url: "/plants", template: LIST, auth: "write", body: "", status: 400 },
  { name: "refuses an array body", method: "POST", url: "/plants", template: LIST, auth: "write", body: "[]", status: 400 },
  { name: "creates nothing without a token", method: "POST", url: "/plants", template: LIST, body: '{"id":208,"name":"x"}', status: 401 },
  { name: "creates nothing for a bad token", method: "POST", url: "/plants", template: LIST, auth: "invalid", body: '{"id":208,"name":"x"}', status: 401 },
  { name: "creates nothing for a read token", method: "POST", url: "/plants", template: LIST, auth: "read", body: '{"id":208,"name":"x"}', status: 403 },
  { name: "creates nothing for a scopeless token", method: "POST", url: "/plants", template: LIST, auth: "scopeless", body: '{"id":208,"name":"x"}', status: 403 },
  { name: "refuses the same id with another name", method: "POST", url: "/plants", template: LIST, auth: "write", seed: ['{"id":209,"name":"cactus"}'], body: '{"id":209,"name":"agave"}', status: 409 },
  { name: "refuses a body over 16 KiB", method: "POST", url: "/plants", template: LIST, auth: "write", body: `{"id":210,"name":"${"a".repeat(17 * 1024)}"}`, status: 413 },
  { name: "refuses text/plain", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":211,"name":"x"}', contentType: "text/plain", status: 415 },
  { name: "refuses a non-UTF-8 charset", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":211,"name":"x"}', contentType: "application/json; charset=latin1", status: 415 },

  // GET /plants/{id}
  { name: "gets a plant with an id above 2^53", method: "GET", url: "/plants/9007199254740995", template: ONE, auth: "read", seed: ['{"id":9007199254740995,"name":"palm"}'], status: 200 },
  { name: "gets a plant with a write token", method: "GET", url: "/plants/301", template: ONE, auth: "write", seed: ['{"id":301,"name":"fig","tag":"tree"}'], status: 200 },
  { name: "gets a negative id", method: "GET", url: "/plants/-302", template: ONE, auth: "read", seed: ['{"id":-302,"name":"moss"}'], status: 200 },
  { name: "finds no absent plant", method: "GET", url: "/plants/303", template: ONE, auth: "read", status: 404 },
  { name: "refuses id abc", method: "GET", url: "/plants/abc", template: ONE, auth: "read", status: 400 },
  { name: "refuses id 007", method: "GET", url: "/plants/007", template: ONE, auth: "read", status: 400 },
  { name: "refuses id -0", method: "GET", url: "/plants/-0", template: ONE, auth: "read", status: 400 },
  { name: "refuses id +1", method: "GET", url: "/plants/+1", template: ONE, auth: "read", status: 400 },
  { name: "refuses id 1e3", method: "GET", url: "/plants/1e3", template: ONE, auth: "read", status: 400 },
  { name: "refuses id 1.0", method: "GET", url: "/plants/1.0", template: ONE, auth: "read", status: 400 },
  { name: "refuses id 2^63", method: "GET", url: "/plants/9223372036854775808", template: ONE, auth: "read", status: 400 },
  { name: "refuses id below -2^63", method: "GET", url: "/plants/-9223372036854775809", template: ONE, auth: "read", status: 400 },
  { name: "refuses an encoded space", method: "GET", url: "/plants/%201", template: ONE, auth: "read", status: 400 },
  { name: "gets nothing without a token", method: "GET", url: "/plants/301", template: ONE, status: 401 },
  { name: "gets nothing for a bad token", method: "GET", url: "/plants/301", template: ONE, auth: "invalid", status: 401 },
  { name: "gets nothing for a scopeless token", method: "GET", url: "/plants/301", template: ONE, auth: "scopeless", status: 403 },

  // DELETE /plants/{id}
  { name: "deletes a plant", method: "DELETE", url: "/plants/401", template: ONE, auth: "write", seed: ['{"id":401,"name":"basil"}'], status: 204 },
  { name: "deletes an id above 2^53", method: "DELETE", url: "/plants/9007199254740997", template: ONE, auth: "write", seed: ['{"id":9007199254740997,"name":"mint"}'], status: 204 },
  { name: "finds no absent plant to delete", method: "DELETE", url: "/plants/402", template: ONE, auth: "write", status: 404 },
  { name: "refuses a malformed id to delete", method: "DELETE", url: "/plants/4.02", template: ONE, auth: "write", status: 400 },
  { name: "deletes nothing without a token", method: "DELETE", url: "/plants/403", template: ONE, seed: ['{"id":403,"name":"sage"}'], status: 401 },
  { name: "deletes nothing for a bad token", method: "DELETE", url: "/plants/403", template: ONE, auth: "invalid", status: 401 },
  { name: "deletes nothing for a read token", method: "DELETE", url: "/plants/403", template: ONE, auth: "read", status: 403 },

  // Methods the paths lack
  { name: "refuses PUT /plants", method: "PUT", url: "/plants", template: LIST, auth: "write", status: 405 },
  { name: "refuses PATCH /plants", method: "PATCH", url: "/plants", template: LIST, auth: "write", status: 405 },
  { name: "refuses DELETE /plants", method: "DELETE", url: "/plants", template: LIST, auth: "write", status: 405 },
  { name: "refuses PUT /plants/{id}", method: "PUT", url: "/plants/1", template: ONE, auth: "write", body: '{"id":1,"name":"x"}', contentType: json, status: 405 },
  { name: "refuses PATCH /plants/{id}", method: "PATCH", url: "/plants/1", template: ONE, auth: "write", status: 405 },
  { name: "refuses POST /plants/{id}", method: "POST", url: "/plants/1", template: ONE, auth: "write", status: 405 },
];

// Answered once the plants table is gone: what a broken database looks like to a client.
const BROKEN_DATABASE_CASES: Case[] = [
  { name: "lists with a broken database", method: "GET", url: "/plants", template: LIST, auth: "read", status: 500 },
  { name: "creates with a broken database", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":501,"name":"x"}', status: 500 },
  { name: "gets with a broken database", method: "GET", url: "/plants/501", template: ONE, auth: "read", status: 500 },
  { name: "deletes with a broken database", method: "DELETE", url: "/plants/501", template: ONE, auth: "write", status: 500 },
];

let app: AppServer;
let checker: ContractChecker;
let tokens: Record<"write" | "read" | "scopeless", string>;
const exercised = new Set<string>();

beforeAll(async () => {
  app = await startApp();
  const [write, read, scopeless] = await Promise.all([
    createToken(app.dataDir, ["plants:write"]),
    createToken(app.dataDir, ["plants:read"]),
    // A token for no scope this version knows (one minted for a future scope, say).
    createToken(app.dataDir, [""]),
  ]);
  tokens = { write, read, scopeless };
  const document = await fetch(`${app.url}/openapi.json`);
  expect(document.status).toBe(200);
  // Plain JSON.parse, as any OpenAPI tool reads it; only the int64 bounds round.
  checker = new ContractChecker((await document.json()) as OpenApiJson);
});

afterAll(async () => {
  await app?.stop();
});

function authorization(auth: Auth | undefined): Record<string, string> {
  switch (auth) {
    case undefined:
      return {};
    case "invalid":
      return { authorization: "Bearer not-a-token" };
    case "basic":
      return { authorization: `Basic ${Buffer.from("staff:secret").toString("base64")}` };
    default:
      return { authorization: `Bearer ${tokens[auth]}` };
  }
}

async function run(testCase: Case): Promise<void> {
  for (const plant of testCase.seed ?? []) {
    const seeded = await fetch(`${app.url}/plants`, { method: "POST", headers: { ...authorization("write"), "content-type": json }, body: plant });
    expect(seeded.status, `seeding ${plant}`).toBe(200);
  }
  const headers = { ...authorization(testCase.auth), ...(testCase.body !== undefined && { "content-type": testCase.contentType ?? json }) };
  const response = await fetch(`${app.url}${testCase.url}`, { method: testCase.method, headers, body: testCase.body });
  const problems = await checker.problems({ method: testCase.method, pathTemplate: testCase.template, response });
  expect({ status: response.status, problems }).toEqual({ status: testCase.status, problems: [] });
  const operation = response.status === 405 ? "*" : testCase.method;
  exercised.add(`${operation} ${testCase.template} ${response.status}`);
}

describe("every answer conforms to /openapi.json", () => {
  for (const testCase of CASES) {
    it(`${testCase.method} ${testCase.url}: ${testCase.name} (${testCase.status})`, () => run(testCase));
  }
});

describe("with a broken database, every operation answers a conforming 500", () => {
  beforeAll(() => {
    const sqlite = new Database(app.databasePath);
    sqlite.exec("DROP TABLE plants");
    sqlite.close();
  });
  for (const testCase of BROKEN_DATABASE_CASES) {
    it(`${testCase.method} ${testCase.url}: ${testCase.name} (${testCase.status})`, () => run(testCase));
  }
});

describe("coverage", () => {
  it("reaches every status the document declares for every operation", () => {
    expect(checker.declaredStatuses().filter((status) => !exercised.has(status))).toEqual([]);
  });
});

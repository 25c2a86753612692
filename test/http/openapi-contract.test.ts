import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { ContractChecker, type OpenApiJson } from "@/test/support/openapi-contract";
import { testDatabaseProvider, testPostgresUrl, withPostgres } from "@/test/support/test-database";

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
  template: "/plants" | "/plants/{id}" | "/plants/batch" | "/plants/{id}/history" | "/plants/events";
  auth?: Auth;
  body?: string;
  contentType?: string;
  /** Other request headers (Accept, Prefer, If-Match, If-None-Match). */
  headers?: Record<string, string>;
  /** NewPlant bodies stored (with the write token) before the request. */
  seed?: string[];
  status: number;
  /** Answer headers the case pins beyond the document's schemas: a value, or null for absent. */
  answers?: Record<string, string | null>;
};

const json = "application/json";
const mergePatch = "application/merge-patch+json";
const LIST = "/plants" as const;
const ONE = "/plants/{id}" as const;
const BATCH = "/plants/batch" as const;
const HISTORY = "/plants/{id}/history" as const;
const EVENTS = "/plants/events" as const;
const stream = { accept: "text/event-stream" };
const csv = "text/csv";

// URLs a GET must refuse with 400 (a read token, nothing seeded), for both paths.
const MALFORMED_GETS: [template: typeof LIST | typeof ONE, name: string, url: string][] = [
  [LIST, "refuses limit=0", "/plants?limit=0"],
  [LIST, "refuses limit=101", "/plants?limit=101"],
  [LIST, "refuses limit=abc", "/plants?limit=abc"],
  [LIST, "refuses limit=1.5", "/plants?limit=1.5"],
  [LIST, "refuses an empty limit", "/plants?limit="],
  [LIST, "refuses a repeated limit", "/plants?limit=1&limit=2"],
  [LIST, "refuses limit=05", "/plants?limit=05"],
  [LIST, "refuses limit=2147483648", "/plants?limit=2147483648"],
  [LIST, "refuses after=abc", "/plants?after=abc"],
  [LIST, "refuses after=2^63", "/plants?after=9223372036854775808"],
  [LIST, "refuses an unknown parameter", "/plants?sort=name"],
  // (Next.js itself drops a __proto__ parameter before the handler sees it.)
  [LIST, "refuses a constructor parameter", "/plants?constructor=1"],
  [LIST, "refuses an empty tag", "/plants?tag="],
  [LIST, "refuses an empty q", "/plants?q="],
  [LIST, "refuses a repeated tag", "/plants?tag=a&tag=b"],
  [LIST, "refuses a q longer than a name", `/plants?q=${"q".repeat(201)}`],
  [ONE, "refuses id abc", "/plants/abc"],
  [ONE, "refuses id 007", "/plants/007"],
  [ONE, "refuses id -0", "/plants/-0"],
  [ONE, "refuses id +1", "/plants/+1"],
  [ONE, "refuses id 1e3", "/plants/1e3"],
  [ONE, "refuses id 1.0", "/plants/1.0"],
  [ONE, "refuses id 2^63", "/plants/9223372036854775808"],
  [ONE, "refuses id below -2^63", "/plants/-9223372036854775809"],
  [ONE, "refuses an encoded space", "/plants/%201"],
];

function malformedGets(template: typeof LIST | typeof ONE): Case[] {
  return MALFORMED_GETS.filter(([path]) => path === template).map(([, name, url]) => ({ name, method: "GET", url, template, auth: "read", status: 400 }));
}

const CASES: Case[] = [
  // GET /plants
  { name: "lists with a read token", method: "GET", url: "/plants", template: LIST, auth: "read", seed: ['{"id":101,"name":"fern","tag":"indoor"}'], status: 200 },
  { name: "lists with a write token", method: "GET", url: "/plants", template: LIST, auth: "write", status: 200 },
  { name: "lists one page of one (Link follows)", method: "GET", url: "/plants?limit=1", template: LIST, auth: "read", seed: ['{"id":102,"name":"ivy"}'], status: 200 },
  { name: "lists the largest page", method: "GET", url: "/plants?limit=100", template: LIST, auth: "read", status: 200 },
  { name: "lists after an id above 2^53", method: "GET", url: "/plants?after=9007199254740993", template: LIST, auth: "read", status: 200 },
  { name: "lists after the least int64", method: "GET", url: "/plants?after=-9223372036854775808&limit=5", template: LIST, auth: "read", status: 200 },
  { name: "finds by tag and text", method: "GET", url: "/plants?tag=indoor&q=FERN&limit=1", template: LIST, auth: "read", seed: ['{"id":103,"name":"Boston fern","tag":"indoor"}'], status: 200 },
  { name: "counts on request", method: "GET", url: "/plants?q=fern", template: LIST, auth: "read", headers: { prefer: "count=exact" }, status: 200 },
  { name: "exports CSV", method: "GET", url: "/plants", template: LIST, auth: "read", headers: { accept: "text/csv" }, seed: ['{"id":104,"name":"=1+1, \\"quoted\\"","tag":"-x"}'], status: 200 },
  { name: "exports a filtered, counted CSV", method: "GET", url: "/plants?tag=indoor&after=0", template: LIST, auth: "read", headers: { accept: "text/*", prefer: "count=exact" }, status: 200 },
  { name: "exports an empty CSV", method: "GET", url: "/plants?tag=none", template: LIST, auth: "read", headers: { accept: "text/csv" }, status: 200 },
  { name: "refuses limit on a CSV export", method: "GET", url: "/plants?limit=5", template: LIST, auth: "read", headers: { accept: "text/csv" }, status: 400 },
  { name: "refuses to answer HTML", method: "GET", url: "/plants", template: LIST, auth: "read", headers: { accept: "text/html" }, status: 406 },
  { name: "refuses when both types are weighed 0", method: "GET", url: "/plants", template: LIST, auth: "read", headers: { accept: "application/json;q=0, text/csv;q=0" }, status: 406 },
  ...malformedGets(LIST),
  { name: "lists nothing without a token", method: "GET", url: "/plants", template: LIST, status: 401 },
  { name: "lists nothing for a bad token", method: "GET", url: "/plants", template: LIST, auth: "invalid", status: 401 },
  { name: "lists nothing for Basic credentials", method: "GET", url: "/plants", template: LIST, auth: "basic", status: 401 },
  { name: "lists nothing for a token without plants:read", method: "GET", url: "/plants", template: LIST, auth: "scopeless", status: 403 },

  // POST /plants
  { name: "creates a plant", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":201,"name":"monstera","tag":"indoor"}', status: 200, answers: { "idempotent-replayed": null } },
  { name: "creates the greatest int64 id", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":9223372036854775807,"name":"max"}', status: 200 },
  { name: "creates the least int64 id", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":-9223372036854775808,"name":"min"}', status: 200 },
  {
    name: "answers an identical retry, replayed",
    method: "POST",
    url: "/plants",
    template: LIST,
    auth: "write",
    seed: ['{"id":202,"name":"aloe"}'],
    body: '{"id":202,"name":"aloe"}',
    status: 200,
    answers: { "idempotent-replayed": "true" },
  },
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

  // POST /plants/batch
  {
    name: "answers each item of a batch",
    method: "POST",
    url: "/plants/batch",
    template: BATCH,
    auth: "write",
    seed: ['{"id":701,"name":"fern"}', '{"id":702,"name":"ivy"}'],
    body: '[{"id":703,"name":"moss","tag":"ground"},{"id":701,"name":"fern"},{"id":702,"name":"palm"},{"id":"x","name":""},7,{"id":9223372036854775807,"name":"edge"}]',
    status: 200,
  },
  { name: "answers each row of a CSV batch with its line", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: 'tag,name,id\r\n,"a, b",704\r\nx,,705\r\n', contentType: csv, status: 200 },
  { name: "answers an empty batch", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: "[]", status: 200 },
  { name: "refuses a batch that is not a list", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: '{"id":706,"name":"x"}', status: 400 },
  { name: "refuses 1,001 plants", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: `[${Array.from({ length: 1001 }, (_, n) => `{"id":${800 + n},"name":"x"}`).join(",")}]`, status: 400 },
  { name: "refuses a malformed CSV batch", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: 'id,name\n707,"open\n', contentType: csv, status: 400 },
  { name: "refuses a CSV header naming an unknown column", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: "id,name,colour\n708,x,green\n", contentType: csv, status: 400 },
  { name: "stores no batch without a token", method: "POST", url: "/plants/batch", template: BATCH, body: '[{"id":709,"name":"x"}]', status: 401 },
  { name: "stores no batch for a bad token", method: "POST", url: "/plants/batch", template: BATCH, auth: "invalid", body: '[{"id":709,"name":"x"}]', status: 401 },
  { name: "stores no batch for a read token", method: "POST", url: "/plants/batch", template: BATCH, auth: "read", body: '[{"id":709,"name":"x"}]', status: 403 },
  { name: "refuses a batch over 2 MiB", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: `[{"id":710,"name":"x"}${" ".repeat(2 * 1024 * 1024)}]`, status: 413 },
  { name: "refuses a batch as text/plain", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: "id,name\n711,x\n", contentType: "text/plain", status: 415 },

  // GET /plants/{id}
  { name: "gets a plant with an id above 2^53", method: "GET", url: "/plants/9007199254740995", template: ONE, auth: "read", seed: ['{"id":9007199254740995,"name":"palm"}'], status: 200 },
  { name: "gets a plant with a write token", method: "GET", url: "/plants/301", template: ONE, auth: "write", seed: ['{"id":301,"name":"fig","tag":"tree"}'], status: 200 },
  { name: "gets a negative id", method: "GET", url: "/plants/-302", template: ONE, auth: "read", seed: ['{"id":-302,"name":"moss"}'], status: 200 },
  { name: "finds no absent plant", method: "GET", url: "/plants/303", template: ONE, auth: "read", status: 404 },
  ...malformedGets(ONE),
  { name: "gets nothing without a token", method: "GET", url: "/plants/301", template: ONE, status: 401 },
  { name: "gets nothing for a bad token", method: "GET", url: "/plants/301", template: ONE, auth: "invalid", status: 401 },
  { name: "gets nothing for a scopeless token", method: "GET", url: "/plants/301", template: ONE, auth: "scopeless", status: 403 },
  { name: "answers 304 to If-None-Match: *", method: "GET", url: "/plants/304", template: ONE, auth: "read", seed: ['{"id":304,"name":"yew"}'], headers: { "if-none-match": "*" }, status: 304 },
  { name: "answers 200 to a stale If-None-Match", method: "GET", url: "/plants/304", template: ONE, auth: "read", headers: { "if-none-match": '"0.0"' }, status: 200 },
  { name: "refuses a malformed If-None-Match", method: "GET", url: "/plants/304", template: ONE, auth: "read", headers: { "if-none-match": "0.0" }, status: 400 },
  { name: "refuses a stale If-Match", method: "GET", url: "/plants/304", template: ONE, auth: "read", headers: { "if-match": '"0.0"' }, status: 412 },

  // PATCH /plants/{id}
  { name: "changes a name", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", seed: ['{"id":721,"name":"fern","tag":"indoor"}'], body: '{"name":"fern II"}', contentType: mergePatch, status: 200 },
  { name: "removes a tag, sent as application/json", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"tag":null}', contentType: json, status: 200 },
  { name: "changes an id above 2^53", method: "PATCH", url: "/plants/9007199254740999", template: ONE, auth: "write", seed: ['{"id":9007199254740999,"name":"oak"}'], body: '{"id":9007199254740999,"tag":"tree"}', contentType: mergePatch, status: 200 },
  { name: "answers a patch that changes nothing", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: "{}", contentType: mergePatch, status: 200 },
  { name: "changes under If-Match: *", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"name":"fern III"}', contentType: mergePatch, headers: { "if-match": "*" }, status: 200 },
  { name: "refuses an empty name", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"name":""}', contentType: mergePatch, status: 400 },
  { name: "refuses an unknown field", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"color":"green"}', contentType: mergePatch, status: 400 },
  { name: "refuses another id", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"id":722}', contentType: mergePatch, status: 400 },
  { name: "refuses an array body", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: "[]", contentType: mergePatch, status: 400 },
  { name: "refuses a malformed If-Match", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, headers: { "if-match": "1.x" }, status: 400 },
  { name: "refuses a malformed id to change", method: "PATCH", url: "/plants/7.01", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, status: 400 },
  { name: "finds no absent plant to change", method: "PATCH", url: "/plants/723", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, status: 404 },
  { name: "refuses a stale If-Match", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, headers: { "if-match": '"1.0"' }, status: 412 },
  { name: "refuses If-None-Match: *", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, headers: { "if-none-match": "*" }, status: 412 },
  { name: "refuses a patch over 16 KiB", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: `{"name":"${"a".repeat(17 * 1024)}"}`, contentType: mergePatch, status: 413 },
  { name: "refuses a JSON Patch (RFC 6902)", method: "PATCH", url: "/plants/721", template: ONE, auth: "write", body: '[{"op":"remove","path":"/tag"}]', contentType: "application/json-patch+json", status: 415 },
  { name: "changes nothing without a token", method: "PATCH", url: "/plants/721", template: ONE, body: '{"name":"x"}', contentType: mergePatch, status: 401 },
  { name: "changes nothing for a bad token", method: "PATCH", url: "/plants/721", template: ONE, auth: "invalid", body: '{"name":"x"}', contentType: mergePatch, status: 401 },
  { name: "changes nothing for a read token", method: "PATCH", url: "/plants/721", template: ONE, auth: "read", body: '{"name":"x"}', contentType: mergePatch, status: 403 },

  // DELETE /plants/{id}
  { name: "deletes a plant", method: "DELETE", url: "/plants/401", template: ONE, auth: "write", seed: ['{"id":401,"name":"basil"}'], status: 204 },
  { name: "deletes an id above 2^53", method: "DELETE", url: "/plants/9007199254740997", template: ONE, auth: "write", seed: ['{"id":9007199254740997,"name":"mint"}'], status: 204 },
  { name: "finds no absent plant to delete", method: "DELETE", url: "/plants/402", template: ONE, auth: "write", status: 404 },
  { name: "refuses a malformed id to delete", method: "DELETE", url: "/plants/4.02", template: ONE, auth: "write", status: 400 },
  { name: "deletes nothing without a token", method: "DELETE", url: "/plants/403", template: ONE, seed: ['{"id":403,"name":"sage"}'], status: 401 },
  { name: "deletes nothing for a bad token", method: "DELETE", url: "/plants/403", template: ONE, auth: "invalid", status: 401 },
  { name: "deletes nothing for a read token", method: "DELETE", url: "/plants/403", template: ONE, auth: "read", status: 403 },
  { name: "deletes under a matching If-Match: *", method: "DELETE", url: "/plants/404", template: ONE, auth: "write", seed: ['{"id":404,"name":"rue"}'], headers: { "if-match": "*" }, status: 204 },
  { name: "deletes nothing under a stale If-Match", method: "DELETE", url: "/plants/403", template: ONE, auth: "write", headers: { "if-match": '"1.0"' }, status: 412 },
  { name: "deletes nothing under If-None-Match: *", method: "DELETE", url: "/plants/403", template: ONE, auth: "write", headers: { "if-none-match": "*" }, status: 412 },

  // GET /plants/{id}/history
  { name: "answers a plant's history", method: "GET", url: "/plants/801/history", template: HISTORY, auth: "read", seed: ['{"id":801,"name":"fern","tag":"indoor"}'], status: 200 },
  { name: "answers a history with a write token", method: "GET", url: "/plants/801/history?limit=1", template: HISTORY, auth: "write", status: 200 },
  { name: "answers a history before a record", method: "GET", url: "/plants/801/history?before=9223372036854775807&limit=100", template: HISTORY, auth: "read", status: 200 },
  { name: "answers the history of an id above 2^53", method: "GET", url: "/plants/9007199254741013/history", template: HISTORY, auth: "read", seed: ['{"id":9007199254741013,"name":"pilea"}'], status: 200 },
  { name: "finds no history of an id never a plant", method: "GET", url: "/plants/802/history", template: HISTORY, auth: "read", status: 404 },
  { name: "refuses a malformed id's history", method: "GET", url: "/plants/abc/history", template: HISTORY, auth: "read", status: 400 },
  { name: "refuses a history's limit=0", method: "GET", url: "/plants/801/history?limit=0", template: HISTORY, auth: "read", status: 400 },
  { name: "refuses a malformed before", method: "GET", url: "/plants/801/history?before=1.5", template: HISTORY, auth: "read", status: 400 },
  { name: "refuses an unknown history parameter", method: "GET", url: "/plants/801/history?after=1", template: HISTORY, auth: "read", status: 400 },
  { name: "answers no history without a token", method: "GET", url: "/plants/801/history", template: HISTORY, status: 401 },
  { name: "answers no history for a bad token", method: "GET", url: "/plants/801/history", template: HISTORY, auth: "invalid", status: 401 },
  { name: "answers no history for a scopeless token", method: "GET", url: "/plants/801/history", template: HISTORY, auth: "scopeless", status: 403 },
  { name: "follows the changes from now", method: "GET", url: "/plants/events", template: EVENTS, auth: "read", headers: stream, status: 200, answers: { "cache-control": "no-store, no-transform" } },
  { name: "follows the changes with a write token and no Accept", method: "GET", url: "/plants/events?after=0&tag=indoor&id=801", template: EVENTS, auth: "write", status: 200 },
  { name: "refuses a negative position", method: "GET", url: "/plants/events?after=-1", template: EVENTS, auth: "read", headers: stream, status: 400 },
  { name: "refuses a Last-Event-ID that is no position", method: "GET", url: "/plants/events", template: EVENTS, auth: "read", headers: { ...stream, "last-event-id": "x" }, status: 400 },
  { name: "refuses an unknown feed parameter", method: "GET", url: "/plants/events?since=1", template: EVENTS, auth: "read", headers: stream, status: 400 },
  { name: "refuses a feed asked for as JSON", method: "GET", url: "/plants/events", template: EVENTS, auth: "read", headers: { accept: json }, status: 406 },
  { name: "refuses a position past the newest", method: "GET", url: "/plants/events?after=9223372036854775807", template: EVENTS, auth: "read", headers: stream, status: 410 },
  { name: "follows nothing without a token", method: "GET", url: "/plants/events", template: EVENTS, headers: stream, status: 401 },
  { name: "follows nothing for a bad token", method: "GET", url: "/plants/events", template: EVENTS, auth: "invalid", headers: stream, status: 401 },
  { name: "follows nothing for a scopeless token", method: "GET", url: "/plants/events", template: EVENTS, auth: "scopeless", headers: stream, status: 403 },

  // Methods the paths lack
  { name: "refuses PUT /plants", method: "PUT", url: "/plants", template: LIST, auth: "write", status: 405 },
  { name: "refuses PATCH /plants", method: "PATCH", url: "/plants", template: LIST, auth: "write", status: 405 },
  { name: "refuses DELETE /plants", method: "DELETE", url: "/plants", template: LIST, auth: "write", status: 405 },
  { name: "refuses PUT /plants/{id}", method: "PUT", url: "/plants/1", template: ONE, auth: "write", body: '{"id":1,"name":"x"}', contentType: json, status: 405 },
  { name: "refuses POST /plants/{id}", method: "POST", url: "/plants/1", template: ONE, auth: "write", status: 405 },
  { name: "refuses GET /plants/batch", method: "GET", url: "/plants/batch", template: BATCH, auth: "write", status: 405 },
  { name: "refuses POST /plants/{id}/history", method: "POST", url: "/plants/1/history", template: HISTORY, auth: "write", status: 405 },
  { name: "refuses POST /plants/events", method: "POST", url: "/plants/events", template: EVENTS, auth: "write", status: 405 },
];

// Answered once the plants table is gone: what a broken database looks like to a client.
const BROKEN_DATABASE_CASES: Case[] = [
  { name: "lists with a broken database", method: "GET", url: "/plants", template: LIST, auth: "read", status: 500 },
  { name: "exports with a broken database", method: "GET", url: "/plants", template: LIST, auth: "read", headers: { accept: "text/csv" }, status: 500 },
  { name: "creates with a broken database", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":501,"name":"x"}', status: 500 },
  { name: "gets with a broken database", method: "GET", url: "/plants/501", template: ONE, auth: "read", status: 500 },
  { name: "changes with a broken database", method: "PATCH", url: "/plants/501", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, status: 500 },
  { name: "deletes with a broken database", method: "DELETE", url: "/plants/501", template: ONE, auth: "write", status: 500 },
  { name: "creates a batch with a broken database", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: '[{"id":501,"name":"x"}]', status: 500 },
  { name: "answers no history with a broken database", method: "GET", url: "/plants/501/history", template: HISTORY, auth: "read", status: 500 },
  { name: "follows nothing with a broken database", method: "GET", url: "/plants/events", template: EVENTS, auth: "read", headers: stream, status: 500 },
];

// Answered while the database accepts no connections (issue 20): PostgreSQL
// refuses the app's new ones once its own have been ended. SQLite has no
// connection to refuse; its 503, a write lock another process holds past the
// busy timeout, stalls the server for that timeout per statement, and is
// checked in database-connection-loss.test.ts.
const UNAVAILABLE_DATABASE_CASES: Case[] = [
  { name: "lists nothing without a database", method: "GET", url: "/plants", template: LIST, auth: "read", status: 503, answers: { "retry-after": "1" } },
  { name: "exports nothing without a database", method: "GET", url: "/plants", template: LIST, auth: "read", headers: { accept: "text/csv" }, status: 503 },
  { name: "creates nothing without a database", method: "POST", url: "/plants", template: LIST, auth: "write", body: '{"id":701,"name":"x"}', status: 503 },
  { name: "gets nothing without a database", method: "GET", url: "/plants/701", template: ONE, auth: "read", status: 503 },
  { name: "changes nothing without a database", method: "PATCH", url: "/plants/701", template: ONE, auth: "write", body: '{"name":"x"}', contentType: mergePatch, status: 503 },
  { name: "deletes nothing without a database", method: "DELETE", url: "/plants/701", template: ONE, auth: "write", status: 503 },
  { name: "creates no batch without a database", method: "POST", url: "/plants/batch", template: BATCH, auth: "write", body: '[{"id":701,"name":"x"}]', status: 503 },
  { name: "answers no history without a database", method: "GET", url: "/plants/701/history", template: HISTORY, auth: "read", status: 503 },
  { name: "follows nothing without a database", method: "GET", url: "/plants/events", template: EVENTS, auth: "read", headers: stream, status: 503 },
];
const postgres = testDatabaseProvider() === "postgresql";

// Answered once this address has used up its allowance of requests without
// valid credentials (RATE_LIMIT_ANONYMOUS, low in this app), whichever token it tried.
const RATE_LIMITED_CASES: Case[] = [
  { name: "lists nothing once rate-limited", method: "GET", url: "/plants", template: LIST, auth: "invalid", status: 429 },
  { name: "creates nothing once rate-limited", method: "POST", url: "/plants", template: LIST, auth: "invalid", body: '{"id":601,"name":"x"}', status: 429 },
  { name: "gets nothing once rate-limited", method: "GET", url: "/plants/601", template: ONE, auth: "invalid", status: 429 },
  { name: "changes nothing once rate-limited", method: "PATCH", url: "/plants/601", template: ONE, auth: "invalid", body: '{"name":"x"}', contentType: mergePatch, status: 429 },
  { name: "deletes nothing once rate-limited", method: "DELETE", url: "/plants/601", template: ONE, status: 429 },
  { name: "creates no batch once rate-limited", method: "POST", url: "/plants/batch", template: BATCH, auth: "invalid", body: '[{"id":601,"name":"x"}]', status: 429 },
  { name: "answers no history once rate-limited", method: "GET", url: "/plants/601/history", template: HISTORY, auth: "invalid", status: 429 },
  { name: "follows nothing once rate-limited", method: "GET", url: "/plants/events", template: EVENTS, auth: "invalid", headers: stream, status: 429 },
];
const ANONYMOUS_ALLOWANCE = 20;

let app: AppServer;
let checker: ContractChecker;
let tokens: Record<"write" | "read" | "scopeless", string>;
const exercised = new Set<string>();

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_ANONYMOUS: `${ANONYMOUS_ALLOWANCE}/1h` } });
  const [write, read, scopeless] = await Promise.all([
    createToken(app.database, ["plants:write"]),
    createToken(app.database, ["plants:read"]),
    // A token for no scope this version knows (one minted for a future scope, say).
    createToken(app.database, [""]),
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
  const headers = { ...authorization(testCase.auth), ...(testCase.body !== undefined && { "content-type": testCase.contentType ?? json }), ...testCase.headers };
  const response = await fetch(`${app.url}${testCase.url}`, { method: testCase.method, headers, body: testCase.body });
  const problems = await checker.problems({ method: testCase.method, pathTemplate: testCase.template, response });
  expect({ status: response.status, problems }).toEqual({ status: testCase.status, problems: [] });
  for (const [name, value] of Object.entries(testCase.answers ?? {})) expect(response.headers.get(name), name).toBe(value);
  const operation = response.status === 405 ? "*" : testCase.method;
  exercised.add(`${operation} ${testCase.template} ${response.status}`);
}

describe("every answer conforms to /openapi.json", () => {
  for (const testCase of CASES) {
    it(`${testCase.method} ${testCase.url}: ${testCase.name} (${testCase.status})`, () => run(testCase));
  }
});

describe.runIf(postgres)("while the database accepts no connections, every operation answers a conforming 503", () => {
  const allowConnections = async (allow: boolean) => {
    const name = new URL(app.database.url).pathname.slice(1);
    await withPostgres(testPostgresUrl(), async (admin) => {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS ${allow}`);
      if (!allow) await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
    });
  };
  beforeAll(() => allowConnections(false));
  afterAll(() => allowConnections(true));
  for (const testCase of UNAVAILABLE_DATABASE_CASES) {
    it(`${testCase.method} ${testCase.url}: ${testCase.name} (${testCase.status})`, () => run(testCase));
  }
});

describe("with a broken database, every operation answers a conforming 500", () => {
  beforeAll(async () => {
    await app.database.query("DROP TABLE plants");
    await app.database.query("DROP TABLE plant_changes");
  });
  for (const testCase of BROKEN_DATABASE_CASES) {
    it(`${testCase.method} ${testCase.url}: ${testCase.name} (${testCase.status})`, () => run(testCase));
  }
});

describe("once rate-limited, every operation answers a conforming 429", () => {
  beforeAll(async () => {
    for (let sent = 0; sent <= ANONYMOUS_ALLOWANCE; sent++) {
      const response = await fetch(`${app.url}/plants`, { headers: authorization("invalid") });
      if (response.status === 429) return;
    }
    throw new Error(`no 429 after ${ANONYMOUS_ALLOWANCE + 1} requests with a bad token`);
  });
  for (const testCase of RATE_LIMITED_CASES) {
    it(`${testCase.method} ${testCase.url}: ${testCase.name} (${testCase.status})`, () => run(testCase));
  }
});

describe("coverage", () => {
  it("reaches every status the document declares for every operation", () => {
    // SQLite's 503 is reached in database-connection-loss.test.ts (see UNAVAILABLE_DATABASE_CASES).
    const declared = checker.declaredStatuses().filter((status) => postgres || !status.endsWith(" 503"));
    expect(declared.filter((status) => !exercised.has(status))).toEqual([]);
  });
});

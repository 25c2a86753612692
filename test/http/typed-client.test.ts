import { readFileSync } from "node:fs";
import { isLosslessNumber, parse, stringify } from "lossless-json";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TYPES_FILE, renderApiTypes } from "@/test/support/api-types";
import { createToken } from "@/test/support/app-server";
import type { components, paths } from "@/test/support/plant-store-api";
import { holdIds, sharedApp } from "@/test/support/shared-app";

// A client generated from the OpenAPI document (openapi-typescript types +
// openapi-fetch), used as an outside JavaScript client would use it, against
// the built app, with ids beyond 2^53. On the app the HTTP files share: its
// ids (2^53 and beyond, 2^63-1, -1, 5) are ones other files store too, so it
// holds them for the whole file (holdIds), and its plants have a tag only it
// uses, to which its lists, searches and exports are restricted.

type Plant = components["schemas"]["Plant"];
type PlantBatchResult = components["schemas"]["PlantBatchResult"];

/**
 * The generated types say int64 fields (the ids) are bigints and every other
 * number a number. openapi-fetch parses with JSON.parse, which would turn
 * 9007199254740993 into 9007199254740992, so answers are read as text
 * (parseAs: "text") and parsed here with lossless-json to match the types.
 */
function parseApiJson(text: string): unknown {
  return parse(text, (key, value) => (isLosslessNumber(value) ? (key === "id" ? BigInt(value.value) : Number(value.value)) : value));
}

/** The parsed body of a 2xx answer read as text. The type is the document's promise, which the contract test checks. */
async function answer<T>(call: Promise<{ data?: string; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (!response.ok || data === undefined) throw new Error(`expected a 2xx answer with a body, got ${response.status}`);
  return parseApiJson(data) as T;
}

/** The `after` cursor of an RFC 8288 rel="next" link, resolved against the request URL. */
function nextAfter(response: Response): bigint | undefined {
  const target = /<([^>]*)>\s*;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
  if (target === undefined) return undefined;
  const url = new URL(target, response.url);
  expect(url.searchParams.get("limit")).toBe("2");
  return BigInt(url.searchParams.get("after") ?? "");
}

const IDS = [9007199254740993n, -1n, 5n, 9223372036854775807n, 9007199254740992n];
// Created by the batch test.
const BATCH_IDS = [9007199254740995n, 9007199254740997n];
const TAG = "typed-client";

const app = sharedApp();
let client: ReturnType<typeof createClient<paths>>;
let release: (() => Promise<void>) | undefined;

beforeAll(async () => {
  release = await holdIds(app, [...IDS, ...BATCH_IDS]);
  const token = await createToken(app.database, ["plants:write"]);
  client = createClient<paths>({
    baseUrl: app.url,
    headers: { authorization: `Bearer ${token}` },
    // JSON.stringify throws on a bigint; lossless-json writes it as an exact integer.
    bodySerializer: (body) => stringify(body),
  });
});

afterAll(async () => {
  await release?.();
});

describe("a client generated from /openapi.json", () => {
  it("uses types that match the document the code builds now", async () => {
    expect(await renderApiTypes(), "run npm run api:types").toBe(readFileSync(API_TYPES_FILE, "utf8"));
  });

  it("creates plants and gets every id back exactly", async () => {
    for (const id of IDS) {
      const plant = await answer<Plant>(client.POST("/plants", { body: { id, name: `plant ${id}`, tag: TAG }, parseAs: "text" }));
      expect(plant).toEqual({ id, name: `plant ${id}`, tag: TAG });
    }
  });

  it("lists plants in id order, two a page, following the Link header", async () => {
    const pages: bigint[][] = [];
    let after: bigint | undefined;
    do {
      const call = client.GET("/plants", { params: { query: { tag: TAG, limit: 2, ...(after !== undefined && { after }) } }, parseAs: "text" });
      const plants = await answer<Plant[]>(call);
      pages.push(plants.map((plant) => plant.id));
      after = nextAfter((await call).response);
    } while (after !== undefined);
    expect(pages).toEqual([
      [-1n, 5n],
      [9007199254740992n, 9007199254740993n],
      [9223372036854775807n],
    ]);
  });

  it("finds plants by tag and by a text in the name, and counts the whole match when asked", async () => {
    const query = { tag: TAG, q: "PLANT 90071992547409", limit: 1 };
    const counted = client.GET("/plants", { params: { query, header: { Prefer: "count=exact" } }, parseAs: "text" });
    expect(await answer<Plant[]>(counted)).toEqual([{ id: 9007199254740992n, name: "plant 9007199254740992", tag: TAG }]);
    const { response } = await counted;
    expect(response.headers.get("x-total-count")).toBe("2");
    expect(response.headers.get("preference-applied")).toBe("count=exact");
    expect(new URL(/<([^>]*)>/.exec(response.headers.get("link") ?? "")?.[1] ?? "", response.url).searchParams.get("q")).toBe(query.q);
    const uncounted = await client.GET("/plants", { params: { query }, parseAs: "text" });
    expect(uncounted.response.headers.get("x-total-count")).toBeNull();
  });

  it("exports the matching plants as CSV, ids exact", async () => {
    const { data, response } = await client.GET("/plants", { params: { query: { tag: TAG, q: "plant 9" } }, headers: { accept: "text/csv" }, parseAs: "text" });
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(data).toBe(
      `id,name,tag\r\n9007199254740992,plant 9007199254740992,${TAG}\r\n9007199254740993,plant 9007199254740993,${TAG}\r\n9223372036854775807,plant 9223372036854775807,${TAG}\r\n`,
    );
  });

  it("gets a plant by an id above 2^53, distinct from its rounded neighbour", async () => {
    const plant = await answer<Plant>(client.GET("/plants/{id}", { params: { path: { id: 9007199254740993n } }, parseAs: "text" }));
    expect(plant).toEqual({ id: 9007199254740993n, name: "plant 9007199254740993", tag: TAG });
  });

  it("changes a plant by an id above 2^53 under its ETag, and a stale ETag changes nothing", async () => {
    const path = { id: 9007199254740993n };
    const read = await client.GET("/plants/{id}", { params: { path }, parseAs: "text" });
    const etag = read.response.headers.get("etag") ?? "";
    const call = client.PATCH("/plants/{id}", {
      params: { path, header: { "If-Match": etag } },
      body: { id: 9007199254740993n, name: "renamed", tag: null },
      headers: { "content-type": "application/merge-patch+json" },
      parseAs: "text",
    });
    expect(await answer<Plant>(call)).toEqual({ id: 9007199254740993n, name: "renamed" });
    const changedEtag = (await call).response.headers.get("etag");
    expect(changedEtag).not.toBe(etag);

    const stale = await client.PATCH("/plants/{id}", { params: { path, header: { "If-Match": etag } }, body: { name: "late" }, parseAs: "text" });
    expect(stale.response.status).toBe(412);
    expect(stale.response.headers.get("etag")).toBe(changedEtag);
    expect(stale.error).toMatchObject({ error: 412 });
    const neighbour = await answer<Plant>(client.GET("/plants/{id}", { params: { path: { id: 9007199254740992n } }, parseAs: "text" }));
    expect(neighbour).toEqual({ id: 9007199254740992n, name: "plant 9007199254740992", tag: TAG });
  });

  it("deletes a plant by an id above 2^53 and leaves its neighbour", async () => {
    const deleted = await client.DELETE("/plants/{id}", { params: { path: { id: 9007199254740993n } } });
    expect(deleted.response.status).toBe(204);
    const gone = await client.GET("/plants/{id}", { params: { path: { id: 9007199254740993n } }, parseAs: "text" });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: 404, message: "no plant has id 9007199254740993" });
    const neighbour = await answer<Plant>(client.GET("/plants/{id}", { params: { path: { id: 9007199254740992n } }, parseAs: "text" }));
    expect(neighbour.id).toBe(9007199254740992n);
  });

  it("creates many plants in one batch, JSON or CSV, and reads each item's result with its exact id", async () => {
    const results = await answer<PlantBatchResult[]>(
      client.POST("/plants/batch", {
        body: [
          { id: 9007199254740995n, name: "batch", tag: TAG },
          { id: 5n, name: "plant 5", tag: TAG },
          { id: 9007199254740992n, name: "not the stored one" },
        ],
        parseAs: "text",
      }),
    );
    expect(results).toEqual([
      { index: 0, status: "stored", plant: { id: 9007199254740995n, name: "batch", tag: TAG } },
      { index: 1, status: "already stored", plant: { id: 5n, name: "plant 5", tag: TAG } },
      { index: 2, status: "conflict", error: { error: 409, message: "a plant with id 9007199254740992 already exists with different data" } },
    ]);
    // The status tells which of plant and error a result has.
    const [stored] = results;
    expect(stored?.status === "stored" || stored?.status === "already stored" ? stored.plant.id : undefined).toBe(9007199254740995n);

    const csv = await answer<PlantBatchResult[]>(
      client.POST("/plants/batch", {
        body: "id,name\n9007199254740997,from CSV\n",
        headers: { "content-type": "text/csv" },
        bodySerializer: (body) => body,
        parseAs: "text",
      }),
    );
    expect(csv).toEqual([{ index: 0, line: 2, status: "stored", plant: { id: 9007199254740997n, name: "from CSV" } }]);
  });
});

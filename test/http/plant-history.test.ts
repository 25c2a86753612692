import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { type SharedApp, sharedAppWithTokens } from "@/test/support/shared-app";

// GET /plants/{id}/history over HTTP against the built app (issue 22): every
// change made through the API is recorded with the token that made it and
// the request's id, newest first, paged by Link; refused requests leave no
// record; a deleted plant's history ends with its delete. On the app the
// HTTP files share: this file's plants have ids from 400000 to 499999, and
// the same past 2^53+1.

let app: SharedApp;
let writeToken: string;
let readToken: string;

beforeAll(async () => ({ app, writeToken, readToken } = await sharedAppWithTokens()));

type Answer = { status: number; headers: Headers; body: unknown };

async function call(method: string, path: string, { token = writeToken, body, headers = {} }: { token?: string | null; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body && { "content-type": method === "PATCH" ? "application/merge-patch+json" : "application/json" }), ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? parseExactJson(text) : null };
}

type HistoryRecord = { id: bigint; at: string; action: string; by: { kind: string; name: string; tokenId: string | null; userId: string | null }; requestId: string | null; before?: unknown; after?: unknown };

async function history(id: bigint | string, query = ""): Promise<{ records: HistoryRecord[]; link: string | null; status: number }> {
  const answer = await call("GET", `/plants/${id}/history${query}`, { token: readToken });
  return { records: answer.body as HistoryRecord[], link: answer.headers.get("link"), status: answer.status };
}

describe("GET /plants/{id}/history", () => {
  it("answers every change made through the API, newest first, with the token and the request that made it", async () => {
    const id = 9007199254740993n + 400_001n;
    const created = await call("POST", "/plants", { body: `{"id":${id},"name":"Monstera","tag":"aroid"}` });
    expect(created.status).toBe(200);
    const renamed = await call("PATCH", `/plants/${id}`, { body: '{"name":"Monstera deliciosa"}' });
    const untagged = await call("PATCH", `/plants/${id}`, { body: '{"tag":null}' });
    const deleted = await call("DELETE", `/plants/${id}`);
    expect([renamed.status, untagged.status, deleted.status]).toEqual([200, 200, 204]);

    const { records, status, link } = await history(id);
    expect(status).toBe(200);
    expect(link).toBeNull();
    expect(records.map((record) => record.action)).toEqual(["plant.deleted", "plant.updated", "plant.updated", "plant.created"]);
    expect(records.map((record) => record.requestId)).toEqual([deleted, untagged, renamed, created].map((answer) => answer.headers.get("x-request-id")));
    expect(records[3]).toMatchObject({ after: { id, name: "Monstera", tag: "aroid" }, by: { kind: "token", name: expect.any(String), tokenId: expect.any(String) } });
    expect(records[2]).toMatchObject({ before: { name: "Monstera" }, after: { name: "Monstera deliciosa" } });
    expect(records[1]).toMatchObject({ before: { tag: "aroid" }, after: { tag: null } });
    // The deleted plant whole, as it was, its id exact past 2^53.
    expect(records[0]!.before).toEqual({ id, name: "Monstera deliciosa" });
    // Where a change came from is for owners, not for every token that reads plants.
    expect(Object.keys(records[0]!)).toEqual(expect.not.arrayContaining(["clientAddress", "userAgent"]));
    expect(new Set(records.map((record) => record.id)).size).toBe(4);
    expect(records.every((record) => !Number.isNaN(Date.parse(record.at)))).toBe(true);
  });

  it("pages newest first by Link, to the last page, which has none", async () => {
    const id = 400_010n;
    await call("POST", "/plants", { body: `{"id":${id},"name":"v0"}` });
    for (let n = 1; n <= 4; n++) await call("PATCH", `/plants/${id}`, { body: `{"name":"v${n}"}` });
    const names: unknown[] = [];
    let query = "?limit=2";
    for (let pages = 1; ; pages++) {
      const page = await history(id, query);
      names.push(...page.records.map((record) => (record.after as { name: string }).name));
      if (!page.link) {
        expect(pages).toBe(3);
        break;
      }
      const next = /^<\/plants\/400010\/history(\?limit=2&before=\d+)>; rel="next"$/.exec(page.link);
      expect(next, page.link).not.toBeNull();
      query = next![1]!;
    }
    expect(names).toEqual(["v4", "v3", "v2", "v1", "v0"]);
  });

  it("records nothing for a refused request", async () => {
    const id = 400_020n;
    await call("POST", "/plants", { body: `{"id":${id},"name":"Fern"}` });
    const before = (await history(id)).records.length;
    expect((await call("POST", "/plants", { body: `{"id":${id},"name":"Not a fern"}` })).status).toBe(409);
    expect((await call("POST", "/plants", { body: `{"id":${id},"name":"Fern"}` })).status).toBe(200); // identical: already stored
    expect((await call("PATCH", `/plants/${id}`, { body: '{"name":""}' })).status).toBe(400);
    expect((await call("PATCH", `/plants/${id}`, { body: '{"name":"x"}', headers: { "if-match": '"9.0"' } })).status).toBe(412);
    expect((await call("PATCH", `/plants/${id}`, { body: '{"name":"x"}', token: readToken })).status).toBe(403);
    expect((await call("DELETE", `/plants/${id}`, { token: null })).status).toBe(401);
    expect((await call("PATCH", `/plants/${id}`, { body: '{"name":"Fern"}' })).status).toBe(200); // changes nothing
    expect((await history(id)).records).toHaveLength(before);
  });

  it("answers 404 for an id that was never a plant, and 400 for a malformed one", async () => {
    expect(await history(400_099n)).toMatchObject({ status: 404, records: { error: 404n, message: "no plant has id 400099" } });
    expect((await history("4e5")).status).toBe(400);
  });
});

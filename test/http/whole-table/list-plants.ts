import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import type { AppServer, AppWithTokens } from "@/test/support/app-server";

// GET /plants over HTTP against the built app: order, limit, cursor paging and
// the Link header. (Every status against the document: lib/openapi-contract.test.ts.)
// On the app test/http/whole-table.test.ts starts, not the one the other HTTP
// files share, emptied of plants first: the list without filters answers the
// whole table, and its order, pages and default limit over everything stored
// are what this file tests.

export function describeListPlants(ownApp: () => AppWithTokens): void {
  let app: AppServer;
  let writeToken: string;
  let readToken: string;

  beforeAll(() => void ({ app, writeToken, readToken } = ownApp()));

  async function create(id: string, name = `plant ${id}`): Promise<void> {
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
      body: `{"id":${id},"name":"${name}"}`,
    });
    expect(response.status).toBe(200);
  }

  async function list(query: string, token = readToken): Promise<{ status: number; link: string | null; body: unknown }> {
    const response = await fetch(`${app.url}/plants${query}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, link: response.headers.get("link"), body: parseExactJson(await response.text()) };
  }

  function ids(body: unknown): bigint[] {
    return (body as { id: bigint }[]).map((plant) => plant.id);
  }

  // Out of order, across the whole int64 range and around 2^53.
  const STORED = ["9007199254740993", "-9223372036854775808", "0", "9223372036854775807", "-1", "9007199254740992", "42"];
  const IN_ORDER = [-9223372036854775808n, -1n, 0n, 42n, 9007199254740992n, 9007199254740993n, 9223372036854775807n];

  describe("GET /plants", () => {
    beforeAll(async () => {
      for (const id of STORED) await create(id);
    });

    it("answers an array of plants in ascending id order, ids exact", async () => {
      const { status, link, body } = await list("");
      expect(status).toBe(200);
      expect(ids(body)).toEqual(IN_ORDER);
      expect((body as unknown[])[0]).toEqual({ id: -9223372036854775808n, name: "plant -9223372036854775808" });
      expect(link).toBeNull();
    });

    it("accepts a write token, which includes plants:read", async () => {
      expect((await list("", writeToken)).status).toBe(200);
    });

    it("pages with a relative rel=next link that keeps the limit, until the last page", async () => {
      const pages: bigint[][] = [];
      let query: string | undefined = "?limit=3";
      const links: string[] = [];
      while (query !== undefined) {
        const { status, link, body } = await list(query);
        expect(status).toBe(200);
        pages.push(ids(body));
        if (link) links.push(link);
        query = link ? /^<\/plants(\?[^>]*)>; rel="next"$/.exec(link)?.[1] : undefined;
      }
      expect(pages).toEqual([IN_ORDER.slice(0, 3), IN_ORDER.slice(3, 6), IN_ORDER.slice(6)]);
      expect(links).toEqual(['</plants?limit=3&after=0>; rel="next"', '</plants?limit=3&after=9007199254740993>; rel="next"']);
    });

    it("gives no next link when a page ends exactly at the last plant", async () => {
      const { link, body } = await list("?limit=2&after=9007199254740992");
      expect(ids(body)).toEqual([9007199254740993n, 9223372036854775807n]);
      expect(link).toBeNull();
    });

    it("starts after the cursor, exclusive, whether or not a plant has that id", async () => {
      expect(ids((await list("?after=9007199254740992")).body)).toEqual([9007199254740993n, 9223372036854775807n]);
      expect(ids((await list("?after=41")).body)).toEqual([42n, 9007199254740992n, 9007199254740993n, 9223372036854775807n]);
      expect(ids((await list("?after=9223372036854775807")).body)).toEqual([]);
    });

    it("answers 20 plants by default, and at most 100", async () => {
      for (let id = 1000; id < 1125; id++) await create(String(id));
      const first = await list("");
      expect((first.body as unknown[]).length).toBe(20);
      expect(first.link).toBe('</plants?limit=20&after=1015>; rel="next"');
      expect((await list("?limit=100")).body).toHaveLength(100);
    });

    it.each([
      ["?limit=0", "limit", "limit must be an integer from 1 to 100"],
      ["?limit=101", "limit", "limit must be an integer from 1 to 100"],
      ["?limit=abc", "limit", "limit must be an integer from 1 to 100"],
      ["?limit=1.5", "limit", "limit must be an integer from 1 to 100"],
      ["?limit=", "limit", "limit must be an integer from 1 to 100"],
      ["?limit=%2B5", "limit", "limit must be an integer from 1 to 100"],
      ["?limit=1&limit=1", "limit", "limit must be an integer from 1 to 100, given once"],
      ["?after=1e3", "after", "after must be an integer from -9223372036854775808 to 9223372036854775807"],
      ["?after=-0", "after", "after must be an integer from -9223372036854775808 to 9223372036854775807"],
      ["?after=9223372036854775808", "after", "after must be an integer from -9223372036854775808 to 9223372036854775807"],
      ["?cursor=abc", "cursor", "unknown query parameter: cursor; known: limit, after, tag, q"],
    ])("refuses %s with 400 naming %s", async (query, field, message) => {
      const { status, body } = await list(query);
      expect(status).toBe(400);
      expect(body).toEqual({ error: 400n, message, details: [{ field, message }] });
    });

    it("answers HEAD like GET, without a body", async () => {
      const response = await fetch(`${app.url}/plants?limit=1`, { method: "HEAD", headers: { authorization: `Bearer ${readToken}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get("link")).toBe('</plants?limit=1&after=-9223372036854775808>; rel="next"');
      expect(await response.text()).toBe("");
    });

    it("names GET, HEAD and POST in Allow", async () => {
      const refused = await fetch(`${app.url}/plants`, { method: "PUT", headers: { authorization: `Bearer ${writeToken}` } });
      expect(refused.status).toBe(405);
      expect(refused.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
      const options = await fetch(`${app.url}/plants`, { method: "OPTIONS" });
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    });
  });
}

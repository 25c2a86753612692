import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import type { AppServer, AppWithTokens } from "@/test/support/app-server";

// GET /plants?tag=&q= over HTTP against the built app (issue 10): the filters
// alone and together, paging through a filtered list by its Link header, the
// count on request (Prefer: count=exact), and the query's rules. The CSV
// export of the same list: export-plants-csv.test.ts.
// On the app test/http/whole-table.test.ts starts, not the one the other HTTP
// files share, emptied of plants first: q alone searches every plant's name,
// and the count without filters is the whole table's; a tag on every query
// would leave the filters alone untested.

export function describeFindPlants(ownApp: () => AppWithTokens): void {
  let app: AppServer;
  let writeToken: string;
  let readToken: string;

  beforeAll(() => void ({ app, writeToken, readToken } = ownApp()));

  type Answer = { status: number; headers: Headers; body: unknown };

  async function list(query: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${app.url}/plants${query}`, { headers: { authorization: `Bearer ${readToken}`, ...headers } });
    return { status: response.status, headers: response.headers, body: parseExactJson(await response.text()) };
  }

  function ids(body: unknown): bigint[] {
    return (body as { id: bigint }[]).map((plant) => plant.id);
  }

  const PLANTS: { id: bigint; name: string; tag?: string }[] = [
    { id: 1n, name: "Boston fern", tag: "indoor" },
    { id: 2n, name: "Staghorn FERN", tag: "indoor" },
    { id: 3n, name: "Fernleaf yarrow", tag: "outdoor" },
    { id: 4n, name: "Monstera", tag: "indoor" },
    { id: 5n, name: "Asparagus fern" },
    { id: 6n, name: "École du jardin", tag: "Indoor" },
    { id: 7n, name: "100% cactus", tag: "desert" },
    { id: 8n, name: "a_b palm", tag: "desert" },
    { id: 9n, name: "ab palm", tag: "desert" },
    { id: 10n, name: "Back\\slash ivy" },
    { id: 11n, name: "ΟΔΟΣ ΚΗΠΟΥ", tag: "indoor" },
    { id: 9007199254740993n, name: "Maidenhair fern", tag: "indoor" },
    { id: -9223372036854775808n, name: "Tree fern", tag: "indoor" },
    { id: 9223372036854775807n, name: "Bird's nest fern", tag: "indoor" },
  ];

  beforeAll(async () => {
    for (const plant of PLANTS) {
      const body = `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${plant.tag === undefined ? "" : `,"tag":${JSON.stringify(plant.tag)}`}}`;
      const response = await fetch(`${app.url}/plants`, {
        method: "POST",
        headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
        body,
      });
      expect(response.status).toBe(200);
    }
  });

  describe("GET /plants?tag=", () => {
    it("answers only plants with exactly that tag, in id order", async () => {
      const { status, body } = await list("?tag=indoor");
      expect(status).toBe(200);
      expect(ids(body)).toEqual([-9223372036854775808n, 1n, 2n, 4n, 11n, 9007199254740993n, 9223372036854775807n]);
      expect((body as unknown[])[1]).toEqual({ id: 1n, name: "Boston fern", tag: "indoor" });
      expect(ids((await list("?tag=Indoor")).body)).toEqual([6n]);
      expect(ids((await list("?tag=indoo")).body)).toEqual([]);
    });
  });

  describe("GET /plants?q=", () => {
    it("finds a text anywhere in the name, ignoring case", async () => {
      expect(ids((await list("?q=FERN")).body)).toEqual([-9223372036854775808n, 1n, 2n, 3n, 5n, 9007199254740993n, 9223372036854775807n]);
      expect(ids((await list("?q=boston%20FeRn")).body)).toEqual([1n]);
      expect(ids((await list("?q=boston+fern")).body)).toEqual([1n]);
      expect(ids((await list("?q=BIRD'S")).body)).toEqual([9223372036854775807n]);
    });

    it("ignores case beyond ASCII", async () => {
      expect(ids((await list(`?q=${encodeURIComponent("école")}`)).body)).toEqual([6n]);
      expect(ids((await list(`?q=${encodeURIComponent("ÉCOLE DU")}`)).body)).toEqual([6n]);
      expect(ids((await list(`?q=${encodeURIComponent("κήπου")}`)).body)).toEqual([]); // accents count: ΚΗΠΟΥ has none
      expect(ids((await list(`?q=${encodeURIComponent("κηπου")}`)).body)).toEqual([11n]);
    });

    it("takes %, _ and \\ as themselves, not as patterns", async () => {
      expect(ids((await list("?q=%25")).body)).toEqual([7n]);
      expect(ids((await list("?q=0%25%20c")).body)).toEqual([7n]);
      expect(ids((await list("?q=a_b")).body)).toEqual([8n]);
      expect(ids((await list("?q=_")).body)).toEqual([8n]);
      expect(ids((await list("?q=%5C")).body)).toEqual([10n]);
      expect(ids((await list("?q=k%5Cs")).body)).toEqual([10n]);
    });

    it("finds a space, which a name may hold", async () => {
      expect(ids((await list("?q=%20&tag=desert")).body)).toEqual([7n, 8n, 9n]);
    });
  });

  describe("tag and q together", () => {
    it("answer the plants that match both", async () => {
      expect(ids((await list("?tag=indoor&q=fern")).body)).toEqual([-9223372036854775808n, 1n, 2n, 9007199254740993n, 9223372036854775807n]);
      expect(ids((await list("?q=fern&tag=outdoor")).body)).toEqual([3n]);
      expect(ids((await list("?q=fern&tag=desert")).body)).toEqual([]);
    });

    it("page by the cursor, with a Link that keeps tag, q and limit, until the last page", async () => {
      const pages: bigint[][] = [];
      const links: string[] = [];
      let query: string | undefined = "?tag=indoor&q=%20FERN&limit=2";
      while (query !== undefined) {
        const { status, headers, body } = await list(query);
        expect(status).toBe(200);
        pages.push(ids(body));
        const link = headers.get("link");
        if (link) links.push(link);
        query = link ? /^<\/plants(\?[^>]*)>; rel="next"$/.exec(link)?.[1] : undefined;
      }
      expect(pages).toEqual([[-9223372036854775808n, 1n], [2n, 9007199254740993n], [9223372036854775807n]]);
      // The space in q is written as + (application/x-www-form-urlencoded), which reads back as a space.
      expect(links).toEqual([
        '</plants?tag=indoor&q=+FERN&limit=2&after=1>; rel="next"',
        '</plants?tag=indoor&q=+FERN&limit=2&after=9007199254740993>; rel="next"',
      ]);
    });

    it("start after the cursor, exclusive", async () => {
      expect(ids((await list("?tag=indoor&q=fern&after=2")).body)).toEqual([9007199254740993n, 9223372036854775807n]);
    });
  });

  describe("the count, on request", () => {
    it("is absent unless asked for", async () => {
      const { headers } = await list("?tag=indoor");
      expect(headers.get("x-total-count")).toBeNull();
      expect(headers.get("preference-applied")).toBeNull();
      // (Next.js adds its own names to Vary.)
      expect(headers.get("vary")?.split(/\s*,\s*/)).toEqual(expect.arrayContaining(["Accept", "Prefer"]));
    });

    it("counts the whole match with Prefer: count=exact, whatever the page", async () => {
      for (const query of ["?tag=indoor&q=fern", "?tag=indoor&q=fern&limit=1", "?tag=indoor&q=fern&limit=2&after=2"]) {
        const { status, headers, body } = await list(query, { prefer: "count=exact" });
        expect(status).toBe(200);
        expect(headers.get("x-total-count"), query).toBe("5");
        expect(headers.get("preference-applied")).toBe("count=exact");
        expect((body as unknown[]).length).toBeLessThanOrEqual(5);
      }
      expect((await list("", { prefer: "return=minimal, count=exact" })).headers.get("x-total-count")).toBe(String(PLANTS.length));
      expect((await list("?q=nothing%20like%20it", { prefer: "count=exact" })).headers.get("x-total-count")).toBe("0");
    });

    it("is not given for a count it does not offer", async () => {
      const { headers } = await list("", { prefer: "count=planned" });
      expect(headers.get("x-total-count")).toBeNull();
      expect(headers.get("preference-applied")).toBeNull();
    });

    it("follows a plant created after the count was taken", async () => {
      expect((await list("?tag=outdoor", { prefer: "count=exact" })).headers.get("x-total-count")).toBe("1");
      const created = await fetch(`${app.url}/plants`, {
        method: "POST",
        headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
        body: '{"id":100,"name":"Hosta","tag":"outdoor"}',
      });
      expect(created.status).toBe(200);
      expect((await list("?tag=outdoor", { prefer: "count=exact" })).headers.get("x-total-count")).toBe("2");
    });
  });

  describe("the query's rules", () => {
    const TAG_RULE = "tag must not be empty; leave tag out to list every plant";
    it.each([
      ["?tag=", "tag", TAG_RULE],
      ["?q=", "q", "q must not be empty; leave q out to list every plant"],
      ["?tag=a&tag=b", "tag", "tag must be given once"],
      ["?q=a&q=b", "q", "q must be given once"],
      ["?tag=%20%20", "tag", "tag must not be only whitespace"],
      [`?tag=${"t".repeat(51)}`, "tag", "tag must be at most 50 characters (got 51)"],
      [`?q=${"q".repeat(201)}`, "q", "q must be at most 200 characters (got 201)"],
      ["?q=fern%0A", "q", "q must not contain control characters"],
      ["?tag=a%00b", "tag", "tag must not contain control characters"],
      ["?name=fern", "name", "unknown query parameter: name; known: limit, after, tag, q"],
    ])("refuses %s with 400 naming %s", async (query, field, message) => {
      const { status, body } = await list(query);
      expect({ status, body }).toEqual({ status: 400, body: { error: 400n, message, details: [{ field, message }] } });
    });

    it("takes the longest tag and q a plant can have", async () => {
      expect((await list(`?tag=${"t".repeat(50)}`)).status).toBe(200);
      expect((await list(`?q=${"🌵".repeat(200)}`)).status).toBe(200);
    });
  });

  describe("content negotiation", () => {
    it("answers JSON to no Accept, */* or application/json", async () => {
      for (const accept of [undefined, "*/*", "application/json", "text/html, */*;q=0.1"]) {
        const { status, headers } = await list("?tag=desert", accept === undefined ? {} : { accept });
        expect(status, accept).toBe(200);
        expect(headers.get("content-type")).toBe("application/json");
      }
    });

    it("answers 406 with an Error body when it can offer nothing acceptable", async () => {
      for (const accept of ["text/html", "application/xml", "application/json;q=0, text/plain", "text/csv;header=absent"]) {
        const { status, headers, body } = await list("?tag=desert", { accept });
        expect(status, accept).toBe(406);
        expect(headers.get("content-type")).toBe("application/json");
        expect(body).toEqual({ error: 406n, message: "the plants are answered as application/json or text/csv; Accept allows neither" });
      }
    });
  });
}

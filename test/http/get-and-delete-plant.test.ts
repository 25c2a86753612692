import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { type SharedApp, sharedAppWithTokens, withIds } from "@/test/support/shared-app";

// GET and DELETE /plants/{id} over HTTP against the built app. (Every status
// against the document: lib/openapi-contract.test.ts.) On the app the HTTP
// files share: this file's plants have ids from 200000 to 299999, but for the
// int64 edges and the neighbours of 2^53, which other files store too and
// which it takes for each test that needs them (withIds).

let app: SharedApp;
let writeToken: string;
let readToken: string;

beforeAll(async () => ({ app, writeToken, readToken } = await sharedAppWithTokens()));

async function call(method: string, id: string, token = writeToken, body?: string): Promise<{ status: number; headers: Headers; text: string }> {
  const headers = { authorization: `Bearer ${token}`, ...(body && { "content-type": "application/json" }) };
  const response = await fetch(`${app.url}/plants${id}`, { method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const create = (body: string) => call("POST", "", writeToken, body);

describe("GET /plants/{id}", () => {
  it.each([
    ["-9223372036854775808", '{"id":-9223372036854775808,"name":"least"}'],
    ["9223372036854775807", '{"id":9223372036854775807,"name":"greatest","tag":"edge"}'],
    ["9007199254740993", '{"id":9007199254740993,"name":"past 2^53"}'],
    ["0", '{"id":0,"name":"zero"}'],
  ])("answers plant %s exactly", async (id, stored) => {
    await withIds(app, [BigInt(id)], async () => {
      expect((await create(stored)).status).toBe(200);
      const { status, headers, text } = await call("GET", `/${id}`, readToken);
      expect(status).toBe(200);
      expect(headers.get("content-type")).toBe("application/json");
      expect(text).toBe(stored);
    });
  });

  it("does not confuse an id with its rounded neighbour", async () => {
    await withIds(app, [9007199254740994n, 9007199254740995n], async () => {
      await create('{"id":9007199254740994,"name":"even"}');
      expect((await call("GET", "/9007199254740995", readToken)).status).toBe(404);
    });
  });

  it("answers 404 with the Error body for an absent plant", async () => {
    const { status, text } = await call("GET", "/299999", readToken);
    expect(status).toBe(404);
    expect(parseExactJson(text)).toEqual({ error: 404n, message: "no plant has id 299999" });
  });

  it.each(["abc", "007", "-0", "+1", "1.0", "1e3", "0x10", "%201", "1%20", "9223372036854775808", "-9223372036854775809", "١٢"])(
    "refuses id %s with 400 naming it",
    async (id) => {
      const { status, text } = await call("GET", `/${id}`, readToken);
      expect(status).toBe(400);
      const message = "id must be an integer from -9223372036854775808 to 9223372036854775807";
      expect(parseExactJson(text)).toEqual({ error: 400n, message, details: [{ field: "id", message }] });
    },
  );

  it("answers HEAD like GET, without a body", async () => {
    await create('{"id":200077,"name":"head"}');
    const { status, text } = await call("HEAD", "/200077", readToken);
    expect(status).toBe(200);
    expect(text).toBe("");
  });
});

describe("DELETE /plants/{id}", () => {
  it("deletes with 204 and no body; the plant is gone from reads and the list", async () => {
    await withIds(app, [9007199254740997n], async () => {
      await create('{"id":9007199254740997,"name":"to delete"}');
      const deleted = await call("DELETE", "/9007199254740997");
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe("");
      expect(deleted.headers.get("content-type")).toBeNull();
      expect((await call("GET", "/9007199254740997", readToken)).status).toBe(404);
      const listed = parseExactJson((await call("GET", "?after=9007199254740996&limit=1", readToken)).text) as { id: bigint }[];
      expect(listed.map((plant) => plant.id)).not.toContain(9007199254740997n);
    });
  });

  it("answers 404 the second time", async () => {
    await create('{"id":200501,"name":"once"}');
    expect((await call("DELETE", "/200501")).status).toBe(204);
    const again = await call("DELETE", "/200501");
    expect(again.status).toBe(404);
    expect(parseExactJson(again.text)).toEqual({ error: 404n, message: "no plant has id 200501" });
  });

  it("frees the id for a new plant with other data", async () => {
    await create('{"id":200502,"name":"first"}');
    await call("DELETE", "/200502");
    expect((await create('{"id":200502,"name":"second"}')).text).toBe('{"id":200502,"name":"second"}');
  });

  it("needs plants:write: a read token gets 403 and the plant stays", async () => {
    await create('{"id":200503,"name":"kept"}');
    const refused = await call("DELETE", "/200503", readToken);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer realm="plant-store", error="insufficient_scope", scope="plants:write", error_description="the bearer token lacks the plants:write scope"',
    );
    expect((await call("GET", "/200503", readToken)).status).toBe(200);
  });

  it("authenticates before reading the id: no token, 401 even for a malformed id", async () => {
    const response = await fetch(`${app.url}/plants/abc`, { method: "DELETE" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="plant-store"');
  });
});

describe("Vary: Accept", () => {
  // A browser's page load of these URLs gets the staff page (proxy.ts), so every answer there
  // depends on Accept, whatever it is (RFC 9110 section 12.5.5); an operation's path has no page.
  const varies = (headers: Headers) => (headers.get("vary") ?? "").split(/\s*,\s*/).some((name) => name.toLowerCase() === "accept");

  it.each([
    ["a plant's 200", "/9007199254740993", 200, true],
    ["an absent plant's 404", "/9223372036854775806", 404, true],
    ["a malformed id's 400", "/1e3", 400, true],
    ["a list with a query", "?tag=a%20b&limit=2", 200, true],
    ["a path with dot segments", "/./9007199254740993", 200, true],
    ["an operation's path", "/batch", 405, false],
  ])("%s", async (_, path, status, expected) => {
    // 2^63-2 is absent: another file stores it, and holding it keeps it deleted meanwhile.
    await withIds(app, [9007199254740993n, 9223372036854775806n], async () => {
      await create('{"id":9007199254740993,"name":"past 2^53"}');
      const answer = await call("GET", path, readToken);
      expect(answer.status, answer.text).toBe(status);
      expect(varies(answer.headers)).toBe(expected);
    });
  });

  it("on a 401 too", async () => {
    const response = await fetch(`${app.url}/plants/9007199254740993`);
    expect(response.status).toBe(401);
    expect(varies(response.headers)).toBe(true);
  });
});

describe("other methods on /plants/{id}", () => {
  it.each(["PUT", "POST"])("%s answers 405 with Allow", async (method) => {
    const { status, headers, text } = await call(method, "/1");
    expect(status).toBe(405);
    expect(headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
    expect(parseExactJson(text)).toEqual({ error: 405n, message: `method ${method} is not allowed here; allowed: GET, HEAD, PATCH, DELETE, OPTIONS` });
  });

  it("OPTIONS answers 204 with Allow, and Accept-Patch for PATCH (RFC 5789)", async () => {
    const response = await fetch(`${app.url}/plants/1`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
    expect(response.headers.get("accept-patch")).toBe("application/merge-patch+json, application/json");
  });
});

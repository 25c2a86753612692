import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foreignApiToken } from "@/test/support/api-tokens";
import { type AppServer, createToken, startAppWithTokens } from "@/test/support/app-server";
import { tokenCli } from "@/test/support/cli";
import { type SharedApp, sharedAppWithTokens, withIds } from "@/test/support/shared-app";
import { storedPlants } from "@/test/support/test-database";
import { postDeclaring } from "@/test/support/declared-body";

// The contract of POST /plants (issue 2), checked over HTTP against the built
// app, the one the HTTP files share. This file's plants have ids of its own,
// which freshId() hands out: from 100000 to 199999 (OWN), the same past
// 2^53+1 and back from 2^63-1; the ids a test is about (the int64 edges, 0,
// what 1e3 reads as), which other files store too, it holds for that test
// (withIds). A plant sent to be refused has the id 199999, which it never
// stores, or a name no other plant has: a refusal is checked to write none of
// this file's plants. Its tokens have labels of their own. Killing and
// restarting the app, and reading its log, it does on an app of its own.

let app: SharedApp;
let writeToken: string;
let readToken: string;

beforeAll(async () => ({ app, writeToken, readToken } = await sharedAppWithTokens()));

const OWN = { from: 100_000n, to: 199_999n };
const OWN_RANGES = [OWN, { from: 9007199254740993n + OWN.from, to: 9007199254740993n + OWN.to }, { from: 9223372036854775807n - OWN.to, to: 9223372036854775807n - OWN.from }];
let nextId = OWN.from;
const freshId = () => nextId++;
const REFUSED = OWN.to;

function post(body: BodyInit, headers: Record<string, string> = {}, token: string | null = writeToken, to: { url: string } = app): Promise<Response> {
  return fetch(`${to.url}/plants`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    body,
  });
}

type ErrorBody = { error: number; message: string; details?: { field: string; message: string }[] };

async function expectError(response: Response, status: number, message: string | RegExp): Promise<ErrorBody> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = JSON.parse(text) as ErrorBody;
  expect(body.error).toBe(status);
  expect(body.message).toMatch(message);
  return body;
}

/** The plants with this file's own ids: what a refused request must leave as it was. */
async function rowCount(): Promise<bigint> {
  const ranges = OWN_RANGES.map((_, n) => `id BETWEEN $${2 * n + 1} AND $${2 * n + 2}`).join(" OR ");
  const [row] = await app.database.query<{ count: bigint }>(`SELECT count(*) AS count FROM plants WHERE ${ranges}`, OWN_RANGES.flatMap(({ from, to }) => [from, to]));
  return BigInt(row!.count);
}

/** The plant with this id, if one is stored. */
async function storedPlant(id: bigint) {
  return (await storedPlants(app.database, { from: id, to: id }))[0];
}

describe("ids are int64 and exact", () => {
  it.each([
    "0",
    "1",
    "-1",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "9223372036854775807",
    "-9223372036854775808",
  ])("id %s is stored and answered to the last digit", (id) =>
    withIds(app, [BigInt(id)], async () => {
      const response = await post(`{"id":${id},"name":"Fern","tag":"green"}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.text()).toBe(`{"id":${id},"name":"Fern","tag":"green"}`);
      expect(await storedPlant(BigInt(id))).toEqual({ id: BigInt(id), name: "Fern", tag: "green" });
    }),
  );

  it.each([
    ["1e3", "1000"],
    ["2.0", "2"],
    ["3.00e1", "30"],
    ["-0", "0"],
  ])("the literal %s is the integer %s", (literal, id) =>
    withIds(app, [BigInt(id)], async () => {
      const response = await post(`{"id":${literal},"name":"Fern","tag":"green"}`);
      expect(await response.text()).toBe(`{"id":${id},"name":"Fern","tag":"green"}`);
    }),
  );

  it.each([
    ["a string", '"42"'],
    ["a fraction", "1.5"],
    ["a negative exponent", "15e-1"],
    ["2^63", "9223372036854775808"],
    ["-2^63-1", "-9223372036854775809"],
    ["a huge exponent", "1e400"],
    ["true", "true"],
    ["null", "null"],
    ["an object", '{"n":1}'],
    ["an array", "[1]"],
  ])("an id that is %s gets 400 and writes nothing", async (_, literal) => {
    // Whatever id a mistaken write gave the plant, it would have this name, which no other plant has.
    const name = `Fern with the id ${literal}`;
    const body = await expectError(await post(`{"id":${literal},"name":${JSON.stringify(name)}}`), 400, /^id must be an integer from -9223372036854775808 to 9223372036854775807/);
    expect(body.details).toEqual([{ field: "id", message: expect.stringContaining("id must be") }]);
    expect(await app.database.query("SELECT id FROM plants WHERE name = $1", [name])).toEqual([]);
  });
});

describe("name and tag", () => {
  it("are stored exactly as sent: no trimming, Unicode kept, tag optional", async () => {
    const id = freshId();
    const name = "  Monstera \u{1F331} d\u00e9licieuse  ";
    const response = await post(JSON.stringify({ id: Number(id), name }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: Number(id), name });
    expect(await storedPlant(id)).toEqual({ id, name, tag: null });
  });

  it("allow 200 and 50 Unicode characters", async () => {
    const id = freshId();
    const plant = { id: Number(id), name: "\u{1F33F}".repeat(200), tag: "\u00e9".repeat(50) };
    const response = await post(JSON.stringify(plant));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(plant);
  });

  it.each([
    [{ name: "Fern" }, "id", "id is required"],
    [{ id: Number(REFUSED) }, "name", "name is required"],
    [{ id: Number(REFUSED), name: "" }, "name", "name must not be empty"],
    [{ id: Number(REFUSED), name: " \u3000 " }, "name", "name must not be only whitespace"],
    [{ id: Number(REFUSED), name: "x".repeat(201) }, "name", "name must be at most 200 characters"],
    [{ id: Number(REFUSED), name: "line\nbreak" }, "name", "name must not contain control characters"],
    [{ id: Number(REFUSED), name: "nul\u0000" }, "name", "name must not contain control characters"],
    [{ id: Number(REFUSED), name: 7 }, "name", "name must be a string"],
    [{ id: Number(REFUSED), name: "Fern", tag: null }, "tag", "tag must be a string"],
    [{ id: Number(REFUSED), name: "Fern", tag: "" }, "tag", "tag must not be empty"],
    [{ id: Number(REFUSED), name: "Fern", tag: "t".repeat(51) }, "tag", "tag must be at most 50 characters"],
    [{ id: Number(REFUSED), name: "Fern", tag: "\t" }, "tag", "tag must not contain control characters"],
    [{ id: Number(REFUSED), name: "Fern", colour: "green" }, "colour", "unknown field: colour"],
  ])("%o gets 400 naming %s", async (plant, field, message) => {
    const before = await rowCount();
    const body = await expectError(await post(JSON.stringify(plant)), 400, message);
    expect(body.details?.map((detail) => detail.field)).toContain(field);
    expect(await rowCount()).toBe(before);
  });

  it("a lone surrogate gets 400 instead of being stored mangled", async () => {
    await expectError(await post(`{"id":${REFUSED},"name":"\\ud800"}`), 400, "name must be valid Unicode");
  });

  it("every failing field is named at once", async () => {
    const body = await expectError(await post('{"id":"x","name":"","tag":null}'), 400, /id must be.*; name must not be empty; tag must be a string/);
    expect(body.details?.map((detail) => detail.field)).toEqual(["id", "name", "tag"]);
  });
});

describe("the body", () => {
  it.each([
    ["malformed JSON", "{bad", /not valid JSON/],
    ["a trailing comma", `{"id":${REFUSED},"name":"a",}`, /not valid JSON/],
    ["two values", `{"id":${REFUSED},"name":"a"} {}`, /not valid JSON/],
    ["an empty body", "", /body is empty/],
    ["an array", `[{"id":${REFUSED},"name":"a"}]`, /must be a JSON object/],
    ["a string", '"plant"', /must be a JSON object/],
    ["null", "null", /must be a JSON object/],
    ["a conflicting duplicate key", `{"id":${REFUSED},"id":${REFUSED - 1n},"name":"a"}`, /Duplicate key 'id'/],
    ["a __proto__ key", `{"id":${REFUSED},"name":"a","__proto__":{"tag":"x"}}`, /unknown field: __proto__/],
    ["deep nesting", `{"id":${REFUSED},"name":${"[".repeat(8000)}${"]".repeat(8000)}}`, /not valid JSON|name must be a string/],
  ])("%s gets 400, never a 500", async (_, body, message) => {
    const before = await rowCount();
    await expectError(await post(body), 400, message);
    expect(await rowCount()).toBe(before);
  });

  it("invalid UTF-8 gets 400", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`{"id":${REFUSED},"name":"`), 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
    await expectError(await post(bytes), 400, "not valid UTF-8");
  });

  it.each([
    ["no Content-Type", undefined, /has no Content-Type/],
    ["text/plain", "text/plain", /unsupported media type text\/plain/],
    ["form data", "application/x-www-form-urlencoded", /unsupported media type/],
    ["another charset", "application/json; charset=iso-8859-1", /unsupported charset iso-8859-1/],
  ])("%s gets 415", async (_, type, message) => {
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${writeToken}`, ...(type && { "content-type": type }) },
      // A Blob with no type leaves the header unset.
      body: new Blob([`{"id":${REFUSED},"name":"a"}`]),
    });
    await expectError(response, 415, message);
  });

  it.each(["application/json; charset=utf-8", "Application/JSON; Charset=UTF-8", 'application/json;charset="utf-8"'])("%s is accepted", async (type) => {
    const id = freshId();
    const response = await post(`{"id":${id},"name":"Fern"}`, { "content-type": type });
    expect(response.status).toBe(200);
  });

  it("exactly 16 KiB is accepted", async () => {
    const json = `{"id":${freshId()},"name":"Fern"}`;
    const response = await post(json + " ".repeat(16 * 1024 - json.length));
    expect(response.status).toBe(200);
  });

  it("a body over 16 KiB gets 413 and the connection stays usable", async () => {
    const json = `{"id":${freshId()},"name":"Fern"}`;
    await expectError(await post(json + " ".repeat(16 * 1024 + 1 - json.length)), 413, "larger than 16384 bytes");
    expect((await post(`{"id":${freshId()},"name":"Fern"}`)).status).toBe(200);
  });

  it("a body declared over 1 MiB gets 413 without being read", async () => {
    const response = await postDeclaring(`${app.url}/plants`, { authorization: `Bearer ${writeToken}`, "content-type": "application/json" }, 8 * 1024 * 1024);
    expect(response.headers.get("connection")).toBe("close");
    await expectError(response, 413, "larger than 16384 bytes");
  });

  it("a streamed body that grows past 16 KiB gets 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 0) controller.enqueue(new TextEncoder().encode(`{"id":${REFUSED},"name":"a"}`));
        else if (sent < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${writeToken}` },
      body,
      duplex: "half",
    } as RequestInit);
    await expectError(response, 413, "larger than 16384 bytes");
    expect((await post(`{"id":${freshId()},"name":"Fern"}`)).status).toBe(200);
  });
});

describe("authentication (RFC 6750)", () => {
  const validBody = () => `{"id":${freshId()},"name":"Fern"}`;

  it("no credentials: 401 with a bare Bearer challenge", async () => {
    const response = await post(validBody(), {}, null);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="plant-store"');
    await expectError(response, 401, "authentication required");
  });

  it("another scheme: 401 with a bare Bearer challenge", async () => {
    const response = await post(validBody(), { authorization: "Basic dXNlcjpwYXNz" }, null);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="plant-store"');
    await expectError(response, 401, "unsupported authorization scheme");
  });

  it.each(["bearer", "BEARER", "BeArEr"])("the scheme name %s works (case-insensitive, RFC 9110)", async (scheme) => {
    const response = await post(validBody(), { authorization: `${scheme} ${writeToken}` }, null);
    expect(response.status).toBe(200);
  });

  it.each([
    ["an empty token", "Bearer "],
    ["characters outside b64token", "Bearer abc$def"],
    ["two tokens", "Bearer abc def"],
    ["an unknown token", "Bearer eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC"],
    ["a tampered token", "tampered"],
  ])("%s: 401 invalid_token", async (_, header) => {
    const authorization = header === "tampered" ? `Bearer ${writeToken.slice(0, -4)}AAAA` : header;
    const before = await rowCount();
    const response = await post(validBody(), { authorization }, null);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="plant-store", error="invalid_token", error_description="[^"]+"$/);
    await expectError(response, 401, /bearer token is (malformed|not valid)/);
    expect(await rowCount()).toBe(before);
  });

  it("a token of another installation (another secret): 401 invalid_token", async () => {
    await expectError(await post(validBody(), {}, await foreignApiToken()), 401, "the bearer token is not valid");
  });

  it("an expired token: 401 invalid_token, decided by its record to the millisecond", async () => {
    const label = "create-plant: expired";
    const token = await createToken(app.database, ["plants:write"], "1h", label);
    expect((await post(validBody(), {}, token)).status).toBe(200);
    // ISO text: SQLite stores it so, and PostgreSQL reads it into its UTC timestamp column.
    await app.database.query("UPDATE api_tokens SET expires_at = $1 WHERE label = $2", [new Date(Date.now() - 1).toISOString(), label]);
    const response = await post(validBody(), {}, token);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expectError(response, 401, "the bearer token has expired");
  });

  // The one test of a token the token CLI made against the app: the other files make theirs in-process
  // (test/support/api-tokens.ts), and cli/token.test.ts tests the CLI without an app.
  it("a token the token CLI made is taken, and refused on the next request once the CLI revokes it", async () => {
    const label = "create-plant: revoked";
    const token = (await tokenCli(app.database, ["create", "--name", label, "--scope", "plants:write", "--expires", "1h"])).stdout.trim();
    expect((await post(validBody(), {}, token)).status).toBe(200);
    const { stdout } = await tokenCli(app.database, ["list", "--json"]);
    const listed = (JSON.parse(stdout) as { id: string; label: string; lastUsedAt: string | null }[]).find((token) => token.label === label)!;
    expect(listed.lastUsedAt).not.toBeNull();
    await tokenCli(app.database, ["revoke", listed.id]);
    const before = await rowCount();
    const response = await post(validBody(), {}, token);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expectError(response, 401, "the bearer token has been revoked");
    expect(await rowCount()).toBe(before);
  });

  it("a token without plants:write: 403 insufficient_scope", async () => {
    const before = await rowCount();
    const response = await post(validBody(), {}, readToken);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer realm="plant-store", error="insufficient_scope", scope="plants:write", error_description="the bearer token lacks the plants:write scope"',
    );
    await expectError(response, 403, "lacks the plants:write scope");
    expect(await rowCount()).toBe(before);
  });

  it("is checked before the body is looked at", async () => {
    const response = await post("{bad", { "content-type": "text/plain" }, null);
    await expectError(response, 401, "authentication required");
  });
});

describe("duplicates", () => {
  it("an identical retry answers 200 with the stored plant, says Idempotent-Replayed: true, and writes nothing", async () => {
    const id = freshId();
    const body = `{"id":${id},"name":"Fern","tag":"green"}`;
    const first = await post(body);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const before = await app.database.query("SELECT * FROM plants WHERE id = $1", [id]);
    const retry = await post(body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await retry.text()).toBe(body);
    expect(await app.database.query("SELECT * FROM plants WHERE id = $1", [id])).toEqual(before);
  });

  it.each([
    ["another name", '"name":"Moss","tag":"green"'],
    ["another tag", '"name":"Fern","tag":"blue"'],
    ["no tag", '"name":"Fern"'],
  ])("the same id with %s answers 409 and changes nothing", async (_, fields) => {
    const id = freshId();
    expect((await post(`{"id":${id},"name":"Fern","tag":"green"}`)).status).toBe(200);
    await expectError(await post(`{"id":${id},${fields}}`), 409, `a plant with id ${id} already exists`);
    expect(await storedPlant(id)).toEqual({ id, name: "Fern", tag: "green" });
  });

  it("concurrent identical requests yield one row and 200 for all, exactly one of them not replayed", async () => {
    const id = 9007199254740993n + freshId();
    const body = `{"id":${id},"name":"Fern"}`;
    const responses = await Promise.all(Array.from({ length: 30 }, () => post(body)));
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") === "true")).toHaveLength(29);
    expect(await storedPlants(app.database, { from: id, to: id })).toHaveLength(1);
  });

  it("a concurrent burst of new, repeated and taken ids gets the answer each would get alone", async () => {
    const taken = freshId();
    expect((await post(`{"id":${taken},"name":"Taken"}`)).status).toBe(200);
    const fresh = Array.from({ length: 40 }, () => 9223372036854775807n - freshId());
    const bodies = [
      ...fresh.map((id) => `{"id":${id},"name":"Burst ${id}"}`),
      `{"id":${taken},"name":"Taken"}`,
      `{"id":${taken},"name":"Thief"}`,
    ];
    const responses = await Promise.all(bodies.map((body) => post(body)));
    expect(await Promise.all(responses.map((response) => response.text()))).toEqual([
      ...bodies.slice(0, -1),
      `{"error":409,"message":"a plant with id ${taken} already exists with different data"}`,
    ]);
    const stored = await storedPlants(app.database, { from: fresh.at(-1)!, to: fresh[0]! });
    for (const id of fresh) expect(stored.find((plant) => plant.id === id)).toEqual({ id, name: `Burst ${id}`, tag: null });
    expect(await storedPlant(taken)).toEqual({ id: taken, name: "Taken", tag: null });
  });

  it("concurrent requests with different data for one id: one wins, the rest get 409, never a 500", async () => {
    const id = freshId();
    const responses = await Promise.all(Array.from({ length: 30 }, (_, n) => post(`{"id":${id},"name":"Fern ${n}"}`)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(29).fill(409)]);
    const winner = (await responses.find((response) => response.status === 200)!.json()) as { name: string };
    expect(await storedPlants(app.database, { from: id, to: id })).toEqual([{ id, name: winner.name, tag: null }]);
  });
});

describe("methods", () => {
  it.each(["PUT", "PATCH", "DELETE"])("%s /plants gets 405 with Allow", async (method) => {
    const response = await fetch(`${app.url}/plants`, { method, headers: { authorization: `Bearer ${writeToken}` } });
    expect(response.headers.get("allow")).toMatch(/POST/);
    await expectError(response, 405, `method ${method} is not allowed`);
  });

  it("OPTIONS lists the allowed methods", async () => {
    const response = await fetch(`${app.url}/plants`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toMatch(/POST/);
  });
});

describe("on an app of its own", () => {
  // The shared app is not to be killed, and its log is not this file's to read.
  let own: AppServer;
  let ownWriteToken: string;
  let ownReadToken: string;

  beforeAll(async () => ({ app: own, writeToken: ownWriteToken, readToken: ownReadToken } = await startAppWithTokens()));
  afterAll(() => own?.stop());

  it("a plant answered with 200 survives a kill -9 and a restart", async () => {
    const id = freshId();
    const body = `{"id":${id},"name":"Survivor"}`;
    expect((await post(body, {}, ownWriteToken, own)).status).toBe(200);
    await own.kill("SIGKILL");
    await own.restart();
    expect(await (await post(body, {}, ownWriteToken, own)).text()).toBe(body);
    await expectError(await post(`{"id":${id},"name":"Other"}`, {}, ownWriteToken, own), 409, "already exists");
  });

  it("tokens never reach the server's log", async () => {
    // The answers the requests above get: stored, replayed, 409, 400, 415, 413, 401 (a tampered token), 403, 405.
    const id = freshId();
    const sent = [
      await post(`{"id":${id},"name":"Fern"}`, {}, ownWriteToken, own),
      await post(`{"id":${id},"name":"Fern"}`, { authorization: `bearer ${ownWriteToken}` }, null, own),
      await post(`{"id":${id},"name":"Moss"}`, {}, ownWriteToken, own),
      await post("{bad", {}, ownWriteToken, own),
      await post(`{"id":${freshId()},"name":"Fern"}`, { "content-type": "text/plain" }, ownWriteToken, own),
      await post(`{"id":${freshId()},"name":"${"a".repeat(17 * 1024)}"}`, {}, ownWriteToken, own),
      await post(`{"id":${freshId()},"name":"Fern"}`, { authorization: `Bearer ${ownWriteToken.slice(0, -4)}AAAA` }, null, own),
      await post(`{"id":${freshId()},"name":"Fern"}`, {}, ownReadToken, own),
      await fetch(`${own.url}/plants`, { method: "PUT", headers: { authorization: `Bearer ${ownWriteToken}` } }),
    ];
    expect(sent.map((response) => response.status)).toEqual([200, 200, 409, 400, 415, 413, 401, 403, 405]);
    expect(own.output()).not.toContain(ownWriteToken);
    expect(own.output()).not.toContain(ownWriteToken.split(".")[4]);
    expect(own.output()).not.toContain(ownReadToken);
  });
});

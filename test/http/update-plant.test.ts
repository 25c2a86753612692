import { request as httpRequest } from "node:http";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { type AppServer, startApp, createToken } from "@/test/support/app-server";
import { addWebhookEndpoint, disableAllEndpoints } from "@/test/support/webhook-endpoints";
import { parseDeliveryBody, startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

// PATCH /plants/{id} (issue 10) over HTTP against the built app: a JSON Merge
// Patch judged by the rules of a new plant, ETags on every answer carrying
// one plant, If-Match and If-None-Match, and changes racing each other.
// (Every status against the document: openapi-contract.test.ts.)

let app: AppServer;
let writeToken: string;
let readToken: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  app = await startApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
  [writeToken, readToken] = await Promise.all([createToken(app.database, ["plants:write"]), createToken(app.database, ["plants:read"])]);
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

let nextId = 9_007_199_254_750_000n;
const freshId = () => nextId++;

type Answer = { status: number; headers: Headers; text: string };

type Options = { body?: BodyInit; contentType?: string | null; token?: string | null; headers?: Record<string, string> };

async function send(method: string, path: string, { body, contentType = "application/merge-patch+json", token = writeToken, headers = {} }: Options = {}): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      ...(token !== null && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && contentType !== null && { "content-type": contentType }),
      ...headers,
    },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const patch = (id: bigint | string, body: BodyInit, options: Omit<Options, "body"> = {}) => send("PATCH", `/plants/${id}`, { ...options, body });
const get = (id: bigint, headers: Record<string, string> = {}) => send("GET", `/plants/${id}`, { token: readToken, headers });
const remove = (id: bigint, headers: Record<string, string> = {}) => send("DELETE", `/plants/${id}`, { headers });
const create = (body: string) => send("POST", "/plants", { body, contentType: "application/json" });

/** Creates a plant; answers its ETag. */
async function seed(id: bigint, fields = '"name":"Fern","tag":"green"'): Promise<string> {
  const created = await create(`{"id":${id},${fields}}`);
  expect(created.status, created.text).toBe(200);
  return etagOf(created);
}

const ETAG = /^"([1-9]\d*)\.([0-9a-z]+)"$/;

/** The answer's ETag, checked to be strong and of the plant's form. */
function etagOf(answer: Answer): string {
  const etag = answer.headers.get("etag");
  expect(etag, `ETag of a ${answer.status}`).toMatch(ETAG);
  return etag!;
}

const versionOf = (etag: string) => Number(ETAG.exec(etag)?.[1]);

type Row = { name: string; tag: string | null; version: number; updated: boolean };

async function row(id: bigint): Promise<Row | undefined> {
  const [found] = await app.database.query<{ name: string; tag: string | null; version: unknown; updated_at: unknown }>(
    "SELECT name, tag, version, updated_at FROM plants WHERE id = $1",
    [id],
  );
  return found && { name: found.name, tag: found.tag, version: Number(found.version), updated: found.updated_at !== null };
}

function expectError(answer: Answer, status: number, message: string | RegExp): { error: number; message: string; details?: { field: string; message: string }[] } {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/json");
  const body = JSON.parse(answer.text) as { error: number; message: string; details?: { field: string; message: string }[] };
  expect(body.error).toBe(status);
  expect(body.message).toMatch(message);
  return body;
}

describe("a merge patch (RFC 7396)", () => {
  it("changes the name and keeps the tag; answers the plant with its next version", async () => {
    const id = freshId();
    const created = await seed(id);
    const changed = await patch(id, '{"name":"Fern II"}');
    expect(changed.status).toBe(200);
    expect(changed.headers.get("content-type")).toBe("application/json");
    expect(changed.text).toBe(`{"id":${id},"name":"Fern II","tag":"green"}`);
    const etag = etagOf(changed);
    expect(versionOf(etag)).toBe(2);
    expect(etag).not.toBe(created);
    // The creation time part stays: the same plant, a later version.
    expect(etag.split(".")[1]).toBe(created.split(".")[1]);
    expect(await row(id)).toEqual({ name: "Fern II", tag: "green", version: 2, updated: true });
    const read = await get(id);
    expect(read.text).toBe(changed.text);
    expect(etagOf(read)).toBe(etag);
    // The list reads through the same kept answers: the change shows there at once too.
    expect((await send("GET", `/plants?after=${id - 1n}&limit=1`, { token: readToken })).text).toBe(`[${changed.text}]`);
  });

  it.each([
    ['{"tag":"blue"}', '"name":"Fern","tag":"blue"'],
    ['{"tag":null}', '"name":"Fern"'],
    ['{"name":"Ivy","tag":null}', '"name":"Ivy"'],
    ['{"name":"  Ivy \u{1F33F}  ","tag":"climber"}', '"name":"  Ivy \u{1F33F}  ","tag":"climber"'],
  ])("%s makes {%s}", async (body, fields) => {
    const id = freshId();
    await seed(id);
    const changed = await patch(id, body);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.text).toBe(`{"id":${id},${fields}}`);
    expect((await get(id)).text).toBe(changed.text);
  });

  it("gives a plant without a tag one", async () => {
    const id = freshId();
    await seed(id, '"name":"Bare"');
    expect((await patch(id, '{"tag":"new"}')).text).toBe(`{"id":${id},"name":"Bare","tag":"new"}`);
  });

  it("takes application/json as well as application/merge-patch+json, in UTF-8", async () => {
    const id = freshId();
    await seed(id);
    expect((await patch(id, '{"name":"A"}', { contentType: "application/json" })).status).toBe(200);
    expect((await patch(id, '{"name":"B"}', { contentType: "application/merge-patch+json; charset=UTF-8" })).status).toBe(200);
    expect((await patch(id, '{"name":"C"}', { contentType: "Application/JSON; charset=utf-8" })).status).toBe(200);
    expect(await row(id)).toMatchObject({ name: "C", version: 4 });
  });

  it.each([
    ["{}", "nothing"],
    ['{"name":"Fern","tag":"green"}', "the stored values"],
    ['{"name":"Fern"}', "the stored name"],
    ['{"id":ID}', "the plant's own id"],
    ['{"id":ID,"name":"Fern","tag":"green"}', "the plant itself"],
  ])("%s (%s) answers 200 and writes nothing: no new version", async (template) => {
    const id = freshId();
    const created = await seed(id);
    const answer = await patch(id, template.replace("ID", String(id)));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toBe(`{"id":${id},"name":"Fern","tag":"green"}`);
    expect(etagOf(answer)).toBe(created);
    expect(await row(id)).toEqual({ name: "Fern", tag: "green", version: 1, updated: false });
  });

  it("removing an absent tag changes nothing", async () => {
    const id = freshId();
    const created = await seed(id, '"name":"Bare"');
    const answer = await patch(id, '{"tag":null}');
    expect(etagOf(answer)).toBe(created);
    expect(await row(id)).toMatchObject({ version: 1, updated: false });
  });

  it("keeps ids above 2^53 exact, and takes the id however JSON writes the integer", async () => {
    await seed(9223372036854775807n, '"name":"Greatest"');
    const changed = await patch("9223372036854775807", '{"id":9223372036854775807,"name":"Still greatest"}');
    expect(changed.text).toBe('{"id":9223372036854775807,"name":"Still greatest"}');
    await seed(3000n, '"name":"Thousands"');
    expect((await patch("3000", '{"id":3e3,"name":"Written 3e3"}')).status).toBe(200);
    expect((await patch("3000", '{"id":3000.0,"name":"Written 3000.0"}')).status).toBe(200);
  });

  it("counts one version per change", async () => {
    const id = freshId();
    await seed(id);
    let etag = "";
    for (const name of ["one", "two", "three"]) etag = etagOf(await patch(id, `{"name":"${name}"}`));
    expect(versionOf(etag)).toBe(4);
    expect(await row(id)).toMatchObject({ name: "three", version: 4 });
  });
});

describe("what a patch may not do", () => {
  // Each bad value, sent to create and to change: the same 400, message and details alike.
  it.each([
    ["name", '""'],
    ["name", '" \\u3000 "'],
    ["name", `"${"x".repeat(201)}"`],
    ["name", '"line\\nbreak"'],
    ["name", '"\\ud800"'],
    ["name", "7"],
    ["name", "null"],
    ["tag", '""'],
    ["tag", `"${"t".repeat(51)}"`],
    ["tag", '"\\t"'],
    ["tag", "5"],
    ["tag", '["a"]'],
  ])("%s = %s gets the 400 a create gets, and changes nothing", async (field, value) => {
    const id = freshId();
    await seed(id);
    const fields = field === "name" ? `"name":${value}` : `"name":"Fern","tag":${value}`;
    const created = await create(`{"id":${freshId()},${fields}}`);
    const changed = await patch(id, `{"${field}":${value}}`);
    expect(created.status, created.text).toBe(400);
    expect(changed.status, changed.text).toBe(400);
    expect(JSON.parse(changed.text)).toEqual(JSON.parse(created.text));
    expect(await row(id)).toEqual({ name: "Fern", tag: "green", version: 1, updated: false });
  });

  it.each([
    ['{"colour":"green"}', "unknown field: colour", ["colour"]],
    ['{"name":"x","colour":"green","size":2}', "unknown fields: colour, size", ["colour", "size"]],
    ['{"__proto__":{"tag":"x"}}', "unknown field: __proto__", ["__proto__"]],
    ['{"name":"","tag":""}', "name must not be empty; tag must not be empty", ["name", "tag"]],
  ])("%s gets 400 naming each field at fault", async (body, message, fields) => {
    const id = freshId();
    await seed(id);
    const refused = expectError(await patch(id, body), 400, message);
    expect(refused.details?.map((detail) => detail.field)).toEqual(fields);
    expect(await row(id)).toMatchObject({ version: 1 });
  });

  it.each([
    ["an array", "[]", /the body must be a JSON object \(a PlantPatch\)/],
    ["a string", '"Fern"', /the body must be a JSON object/],
    ["null", "null", /the body must be a JSON object/],
    ["a number", "42", /the body must be a JSON object/],
    ["malformed JSON", '{"name":', /not valid JSON/],
    ["a duplicate key", '{"name":"a","name":"b"}', /Duplicate key 'name'/],
    ["an empty body", "", /body is empty/],
  ])("a body that is %s gets 400, never a 500", async (_, body, message) => {
    const id = freshId();
    await seed(id);
    expectError(await patch(id, body), 400, message);
    expect(await row(id)).toMatchObject({ version: 1 });
  });

  it("invalid UTF-8 gets 400", async () => {
    const id = freshId();
    await seed(id);
    const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, ...new TextEncoder().encode('"}')]);
    expectError(await patch(id, bytes), 400, "not valid UTF-8");
  });

  it.each([
    ["another id", '{"id":9007199254740994,"name":"Moved"}'],
    // 2^53 + 1 is 2^53 as a double: a client that parsed the plant with JSON.parse sends it so.
    ["the id as a double rounds it", '{"id":9007199254740992}'],
  ])("changing the id (%s) gets 400 id cannot change", async (_, body) => {
    const id = 9007199254740993n;
    if (!(await row(id))) await seed(id);
    const refused = expectError(await patch(id, body), 400, /^id cannot change$/);
    expect(refused.details).toEqual([{ field: "id", message: "id cannot change" }]);
    expect(await row(id)).toMatchObject({ version: 1 });
  });

  it("an id that is no int64 gets the create rule's 400", async () => {
    const id = freshId();
    await seed(id);
    expectError(await patch(id, '{"id":"1"}'), 400, /^id must be an integer from -9223372036854775808 to 9223372036854775807$/);
  });

  it.each([
    ["no Content-Type", null, /has no Content-Type/],
    ["text/plain", "text/plain", /unsupported media type text\/plain/],
    ["application/json-patch+json (RFC 6902)", "application/json-patch+json", /unsupported media type application\/json-patch\+json/],
    ["another charset", "application/merge-patch+json; charset=iso-8859-1", /unsupported charset iso-8859-1/],
  ])("%s gets 415 with Accept-Patch", async (_, contentType, message) => {
    const id = freshId();
    await seed(id);
    const refused = await patch(id, new Blob(['{"name":"x"}']), { contentType });
    expectError(refused, 415, message);
    expect(refused.text).toContain("Content-Type must be application/merge-patch+json or application/json (charset utf-8)");
    expect(refused.headers.get("accept-patch")).toBe("application/merge-patch+json, application/json");
    expect(await row(id)).toMatchObject({ version: 1 });
  });

  it("a body over 16 KiB gets 413", async () => {
    const id = freshId();
    await seed(id);
    expectError(await patch(id, `{"name":"${"a".repeat(17 * 1024)}"}`), 413, /larger than 16384 bytes/);
    expect(await row(id)).toMatchObject({ version: 1 });
  });

  it("an absent plant gets 404, with or without If-Match", async () => {
    const id = freshId();
    expect(JSON.parse((await patch(id, '{"name":"x"}')).text)).toEqual({ error: 404, message: `no plant has id ${id}` });
    expect((await patch(id, '{"name":"x"}', { headers: { "if-match": "*" } })).status).toBe(404);
    expect((await patch(id, '{"name":"x"}', { headers: { "if-match": '"1.abc"' } })).status).toBe(404);
    expect(await row(id)).toBeUndefined();
  });

  it("a malformed id in the path gets 400", async () => {
    expectError(await patch("007", '{"name":"x"}'), 400, /^id must be an integer/);
  });

  it("needs plants:write: a read token gets 403, no token 401, and nothing changes", async () => {
    const id = freshId();
    await seed(id);
    expect((await patch(id, '{"name":"x"}', { token: readToken })).status).toBe(403);
    const anonymous = await patch(id, '{"name":"x"}', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="plant-store"');
    expect(await row(id)).toMatchObject({ name: "Fern", version: 1 });
  });
});

describe("ETags", () => {
  it("every answer carrying one plant has its strong ETag: create, its identical repeat, get, change", async () => {
    const id = freshId();
    const created = await create(`{"id":${id},"name":"Tagged"}`);
    const etag = etagOf(created);
    expect(versionOf(etag)).toBe(1);
    expect(etagOf(await create(`{"id":${id},"name":"Tagged"}`))).toBe(etag);
    expect(etagOf(await get(id))).toBe(etag);
    expect(etagOf(await send("HEAD", `/plants/${id}`, { token: readToken }))).toBe(etag);
    const changed = etagOf(await patch(id, '{"tag":"t"}'));
    expect(etagOf(await get(id))).toBe(changed);
  });

  it("a new plant under a deleted one's id has another ETag, though both are at version 1", async () => {
    const id = freshId();
    const first = await seed(id);
    expect((await remove(id)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = await seed(id);
    expect(versionOf(second)).toBe(1);
    expect(second).not.toBe(first);
    expect((await patch(id, '{"name":"Not yours"}', { headers: { "if-match": first } })).status).toBe(412);
    expect((await remove(id, { "if-match": first })).status).toBe(412);
    expect(await row(id)).toMatchObject({ name: "Fern", version: 1 });
  });
});

describe("If-Match on PATCH", () => {
  it("changes the plant when it names the current version, alone or in a list", async () => {
    const id = freshId();
    const etag = await seed(id);
    const changed = await patch(id, '{"name":"Matched"}', { headers: { "if-match": etag } });
    expect(changed.status).toBe(200);
    const listed = await patch(id, '{"name":"Listed"}', { headers: { "if-match": `"9.zz", ${etagOf(changed)} , "1.a"` } });
    expect(listed.status).toBe(200);
    expect((await patch(id, '{"name":"Any"}', { headers: { "if-match": "*" } })).status).toBe(200);
    expect(await row(id)).toMatchObject({ name: "Any", version: 4 });
  });

  it("answers 412 with the current ETag and changes nothing when the version is not the current one", async () => {
    const id = freshId();
    const stale = await seed(id);
    const current = etagOf(await patch(id, '{"name":"Moved on"}'));
    const refused = await patch(id, '{"name":"Lost"}', { headers: { "if-match": stale } });
    const body = expectError(refused, 412, /^plant \d+ has changed since the version named: it is now at "2\.[0-9a-z]+"; nothing was changed$/);
    expect(body.details).toBeUndefined();
    expect(refused.headers.get("etag")).toBe(current);
    expect(await row(id)).toEqual({ name: "Moved on", tag: "green", version: 2, updated: true });
    // Retried with the ETag the 412 gave, it lands.
    expect((await patch(id, '{"name":"Retried"}', { headers: { "if-match": current } })).status).toBe(200);
  });

  it("a 412 also for a change that would change nothing: the condition comes first", async () => {
    const id = freshId();
    await seed(id);
    expect((await patch(id, "{}", { headers: { "if-match": '"1.0"' } })).status).toBe(412);
  });

  it("never matches a weak ETag (strong comparison)", async () => {
    const id = freshId();
    const etag = await seed(id);
    const refused = await patch(id, '{"name":"Weak"}', { headers: { "if-match": `W/${etag}` } });
    expect(refused.status).toBe(412);
    expect(refused.headers.get("etag")).toBe(etag);
    expect(await row(id)).toMatchObject({ version: 1 });
  });

  it.each(['1.abc', '"1.abc', '"1.a" "2.b"', "W/*"])("refuses a malformed If-Match (%s) with 400, and changes nothing", async (field) => {
    const id = freshId();
    await seed(id);
    expectError(await patch(id, '{"name":"x"}', { headers: { "if-match": field } }), 400, /^If-Match must be "\*" or a comma-separated list of entity-tags/);
    expect(await row(id)).toMatchObject({ version: 1 });
  });
});

describe("If-None-Match on GET", () => {
  it("answers 304 with the ETag and no body when it names the current version", async () => {
    const id = freshId();
    const etag = await seed(id);
    for (const field of [etag, `W/${etag}`, `"1.x", ${etag}`, "*"]) {
      const answer = await get(id, { "if-none-match": field });
      expect(answer.status, field).toBe(304);
      expect(answer.text).toBe("");
      expect(answer.headers.get("etag")).toBe(etag);
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    expect((await send("HEAD", `/plants/${id}`, { token: readToken, headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("answers 200 with the plant once it changed", async () => {
    const id = freshId();
    const old = await seed(id);
    const current = etagOf(await patch(id, '{"name":"Newer"}'));
    const answer = await get(id, { "if-none-match": old });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(`{"id":${id},"name":"Newer","tag":"green"}`);
    expect(etagOf(answer)).toBe(current);
  });

  it("answers 404 for an absent plant, * or not", async () => {
    expect((await get(freshId(), { "if-none-match": "*" })).status).toBe(404);
  });

  it("refuses a malformed If-None-Match with 400", async () => {
    const id = freshId();
    await seed(id);
    expectError(await get(id, { "if-none-match": "1.abc" }), 400, /^If-None-Match must be/);
  });
});

describe("If-Match on DELETE", () => {
  it("deletes when it names the current version", async () => {
    const id = freshId();
    const etag = await seed(id);
    expect((await remove(id, { "if-match": `"7.x", ${etag}` })).status).toBe(204);
    expect(await row(id)).toBeUndefined();
    expect((await remove(id, { "if-match": etag })).status).toBe(404);
  });

  it("answers 412 with the current ETag, and deletes nothing, when it does not", async () => {
    const id = freshId();
    const stale = await seed(id);
    const current = etagOf(await patch(id, '{"tag":"changed"}'));
    const refused = await remove(id, { "if-match": stale });
    expectError(refused, 412, /has changed since the version named/);
    expect(refused.headers.get("etag")).toBe(current);
    expect(await row(id)).toMatchObject({ tag: "changed", version: 2 });
    expect((await remove(id, { "if-match": `W/${current}` })).status).toBe(412);
  });

  it("with *, deletes any version, and answers 404 for an absent plant", async () => {
    const id = freshId();
    await seed(id);
    expect((await remove(id, { "if-match": "*" })).status).toBe(204);
    expect((await remove(id, { "if-match": "*" })).status).toBe(404);
  });
});

// A second instance on the same database, for the races.
let twin: AppServer;

/**
 * PATCHes of one plant run at once, for real: each request's headers go
 * first, and only once every handler has authenticated and waits for its
 * body do all the bodies go, together, to two instances in turn. (One
 * instance on SQLite reads and writes each change before it turns to the
 * next request, better-sqlite3 answering on the event loop: sent plainly,
 * or to one instance, these tests passed against a build whose write
 * compared no version. Two processes run truly at once, on either engine.)
 */
async function racingPatches(id: bigint, bodies: string[], headers: Record<string, string> = {}, alongside?: () => Promise<Answer>): Promise<Answer[]> {
  const started = bodies.map((body, index) => {
    const request = httpRequest(`${(index % 2 === 0 ? app : twin).url}/plants/${id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/merge-patch+json", "content-length": String(Buffer.byteLength(body)), ...headers },
    });
    const answer = new Promise<Answer>((resolve, reject) => {
      request.on("error", reject);
      request.on("response", (response) => {
        const received = Object.entries(response.headers).flatMap(([name, value]): [string, string][] => (typeof value === "string" ? [[name, value]] : []));
        buffer(response).then((body) => resolve({ status: response.statusCode ?? 0, headers: new Headers(received), text: body.toString() }), reject);
      });
    });
    request.flushHeaders();
    return { request, body, answer };
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  // A request with no body to hold back goes as the bodies go.
  const other = alongside?.();
  for (const { request, body } of started) request.end(body);
  return Promise.all([...(other ? [other] : []), ...started.map(({ answer }) => answer)]);
}

describe("changes racing each other", () => {
  const RACERS = 12;

  beforeAll(async () => {
    twin = await startApp({ database: app.database });
  });

  afterAll(async () => {
    await twin?.stop();
  });

  it("of concurrent changes under the same If-Match, exactly one lands; the rest get 412 with the winner's ETag", async () => {
    const id = freshId();
    const etag = await seed(id);
    const answers = await racingPatches(
      id,
      Array.from({ length: RACERS }, (_, index) => `{"name":"Racer ${index}"}`),
      { "if-match": etag },
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(RACERS - 1).fill(412)]);
    const winner = parseExactJson(won[0]!.text) as { name: string };
    const winnerEtag = etagOf(won[0]!);
    expect(versionOf(winnerEtag)).toBe(2);
    for (const lost of answers.filter((answer) => answer.status === 412)) expect(lost.headers.get("etag")).toBe(winnerEtag);
    expect(await row(id)).toEqual({ name: winner.name, tag: "green", version: 2, updated: true });
    expect(etagOf(await get(id))).toBe(winnerEtag);
  });

  it("concurrent changes of different fields without If-Match all land, each on the one before", async () => {
    const id = freshId();
    await seed(id, '"name":"Start","tag":"start"');
    const bodies = Array.from({ length: RACERS }, (_, index) => (index % 2 === 0 ? { name: `Name ${index}` } : { tag: `tag ${index}` }));
    const answers = await racingPatches(id, bodies.map((body) => JSON.stringify(body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(RACERS).fill(200));
    // Every change made a version of its own: none was written over a plant read before another change.
    const chain = answers
      .map((answer, index) => ({ version: versionOf(etagOf(answer)), body: bodies[index]!, plant: JSON.parse(answer.text) as { name: string; tag: string } }))
      .sort((a, b) => a.version - b.version);
    expect(chain.map((link) => link.version)).toEqual(Array.from({ length: RACERS }, (_, index) => index + 2));
    let previous = { name: "Start", tag: "start" };
    for (const { body, plant } of chain) {
      // Each answer is the plant before it with this change's one field changed.
      expect({ name: plant.name, tag: plant.tag }).toEqual({ ...previous, ...body });
      previous = { name: plant.name, tag: plant.tag };
    }
    expect(await row(id)).toEqual({ ...previous, version: RACERS + 1, updated: true });
  });

  it("a change of the name and one of the tag, at once, both land (over and over)", async () => {
    for (let round = 0; round < 10; round++) {
      const id = freshId();
      await seed(id, '"name":"Both"');
      const [named, tagged] = (await racingPatches(id, [`{"name":"Named ${round}"}`, `{"tag":"tagged ${round}"}`])) as [Answer, Answer];
      expect([named.status, tagged.status]).toEqual([200, 200]);
      expect(await row(id)).toEqual({ name: `Named ${round}`, tag: `tagged ${round}`, version: 3, updated: true });
    }
  });

  it("a delete under If-Match racing changes under the same If-Match: one of them lands", async () => {
    const id = freshId();
    const etag = await seed(id);
    const bodies = Array.from({ length: RACERS - 1 }, (_, index) => `{"name":"Racer ${index}"}`);
    const answers = await racingPatches(id, bodies, { "if-match": etag }, () => send("DELETE", `/plants/${id}`, { headers: { "if-match": etag } }));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200 || status === 204)).toHaveLength(1);
    // Losers to a change get 412; losers to the delete find no plant.
    expect(statuses.every((status) => [200, 204, 404, 412].includes(status))).toBe(true);
    const deleted = statuses[0] === 204;
    expect(await row(id)).toEqual(deleted ? undefined : expect.objectContaining({ version: 2 }));
  });
});

describe("plant.updated", () => {
  it("one event with the plant as it is now per change; none for a patch that changes nothing, nor for a refused one", async () => {
    const endpoint = await addWebhookEndpoint(app.database, { url: receiver.url, events: ["plant.updated"] });
    receiver.secrets = [endpoint.secret];
    try {
      const id = freshId();
      const etag = await seed(id);
      const events = async () =>
        (await app.database.query<{ type: string; data: string }>("SELECT type, data FROM webhook_events WHERE data LIKE $1 ORDER BY created_at", [`{"id":${id},%`])).map(
          ({ type, data }) => ({ type, data }),
        );
      expect((await patch(id, "{}")).status).toBe(200);
      expect((await patch(id, '{"name":"Fern","tag":"green"}')).status).toBe(200);
      expect((await patch(id, '{"name":""}')).status).toBe(400);
      expect(await events()).toEqual([]);

      expect((await patch(id, '{"name":"Renamed","tag":null}')).status).toBe(200);
      const renamed = [{ type: "plant.updated", data: `{"id":${id},"name":"Renamed"}` }];
      expect(await events()).toEqual(renamed);
      // Stale: refused, no event.
      expect((await patch(id, '{"name":"Stale"}', { headers: { "if-match": etag } })).status).toBe(412);
      expect((await patch(id, '{"name":"Renamed"}')).status).toBe(200);
      expect(await events()).toEqual(renamed);

      // And it reaches the endpoint, signed, once.
      await receiver.waitFor("the plant.updated delivery", () => receiver.received.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received.map((delivery) => parseDeliveryBody(delivery.body))).toEqual([
        { type: "plant.updated", timestamp: expect.any(String), data: { id: String(id), name: "Renamed" } },
      ]);
      expect(receiver.unverified()).toEqual([]);
    } finally {
      await disableAllEndpoints(app.database);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { addWebhookEndpoint } from "@/test/support/webhook-endpoints";

// Issue 20, point 4: If-Match and If-None-Match are evaluated for every method
// on /plants/{id}, in RFC 9110 section 13.2.2's order, against the built app.
// One table: method x conditions x state -> status; each row on a plant of its
// own, and every refusal (412, 304, 404) checked to have changed nothing in
// the database: not the plant, not the events the webhooks send.

let app: AppServer;
let writeToken: string;
let readToken: string;

beforeAll(async () => {
  // An endpoint for every event, and no worker to deliver them: a change or a delete leaves its event in webhook_events.
  app = await startApp({ env: { WEBHOOK_WORKER: "off" } });
  [writeToken, readToken] = await Promise.all([createToken(app.database, ["plants:write"]), createToken(app.database, ["plants:read"])]);
  await addWebhookEndpoint(app.database, { url: "https://hooks.example/in", events: ["plant.created", "plant.updated", "plant.deleted"] });
});

afterAll(async () => {
  await app?.stop();
});

let nextId = 9_007_199_254_760_000n;

type Method = "GET" | "HEAD" | "PATCH" | "DELETE";

/** Conditions, written with the plant's current ETag ("T" in the table's names). */
type Conditions = (current: string) => Record<string, string>;

const OTHER = '"1.0"';
const weak = (etag: string) => `W/${etag}`;

// [the conditions, and the status of GET and HEAD, PATCH and DELETE on a plant that exists]
const TABLE: [name: string, conditions: Conditions, safe: number, patch: number, remove: number][] = [
  ["no conditions", () => ({}), 200, 200, 204],
  ['If-Match: "T"', (t) => ({ "if-match": t }), 200, 200, 204],
  ['If-Match: "other", "T"', (t) => ({ "if-match": `${OTHER}, ${t}` }), 200, 200, 204],
  ['If-Match: "other"', () => ({ "if-match": OTHER }), 412, 412, 412],
  // Strong comparison: a weak tag never matches.
  ['If-Match: W/"T"', (t) => ({ "if-match": weak(t) }), 412, 412, 412],
  ["If-Match: *", () => ({ "if-match": "*" }), 200, 200, 204],
  ['If-None-Match: "T"', (t) => ({ "if-none-match": t }), 304, 412, 412],
  // Weak comparison: W/ is ignored.
  ['If-None-Match: W/"T"', (t) => ({ "if-none-match": weak(t) }), 304, 412, 412],
  ["If-None-Match: *", () => ({ "if-none-match": "*" }), 304, 412, 412],
  ['If-None-Match: "other"', () => ({ "if-none-match": OTHER }), 200, 200, 204],
  // If-Match is evaluated first; If-None-Match only when it holds.
  ['If-Match: "T", If-None-Match: "T"', (t) => ({ "if-match": t, "if-none-match": t }), 304, 412, 412],
  ['If-Match: "other", If-None-Match: "T"', (t) => ({ "if-match": OTHER, "if-none-match": t }), 412, 412, 412],
  ['If-Match: "T", If-None-Match: "other"', (t) => ({ "if-match": t, "if-none-match": OTHER }), 200, 200, 204],
  ['If-Match: "other", If-None-Match: "other"', () => ({ "if-match": OTHER, "if-none-match": OTHER }), 412, 412, 412],
  // No Last-Modified is sent, so no date condition is evaluated (RFC 9110 sections 13.1.3 and 13.1.4).
  ["If-Unmodified-Since: 1970", () => ({ "if-unmodified-since": "Thu, 01 Jan 1970 00:00:00 GMT" }), 200, 200, 204],
  ["If-Modified-Since: 2099", () => ({ "if-modified-since": "Thu, 01 Jan 2099 00:00:00 GMT" }), 200, 200, 204],
];

const ROWS = TABLE.flatMap(([name, conditions, safe, patch, remove]) =>
  (["GET", "HEAD", "PATCH", "DELETE"] as const).map((method) => {
    const status = method === "PATCH" ? patch : method === "DELETE" ? remove : safe;
    return { method, name, conditions, status };
  }),
);

/** The plant as stored, and how many webhook events it has had; undefined once it is gone. */
async function stored(id: bigint): Promise<{ name: string; version: number; events: number } | undefined> {
  const [plant] = await app.database.query<{ name: string; version: unknown }>("SELECT name, version FROM plants WHERE id = $1", [id]);
  const events = await app.database.query("SELECT id FROM webhook_events WHERE data LIKE $1", [`{"id":${id},%`]);
  return plant && { name: plant.name, version: Number(plant.version), events: events.length };
}

async function send(method: Method, id: bigint, headers: Record<string, string>) {
  const body = method === "PATCH" ? '{"name":"Changed"}' : undefined;
  const response = await fetch(`${app.url}/plants/${id}`, {
    method,
    headers: {
      authorization: `Bearer ${method === "GET" || method === "HEAD" ? readToken : writeToken}`,
      ...(body && { "content-type": "application/merge-patch+json" }),
      ...headers,
    },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A plant of the row's own; answers its ETag. */
async function seed(id: bigint): Promise<string> {
  const created = await fetch(`${app.url}/plants`, {
    method: "POST",
    headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
    body: `{"id":${id},"name":"Fern"}`,
  });
  expect(created.status).toBe(200);
  return created.headers.get("etag")!;
}

describe("on a plant that exists", () => {
  it.each(ROWS)("$method with $name: $status", async ({ method, conditions, status }) => {
    const id = nextId++;
    const etag = await seed(id);
    const before = await stored(id);
    const answer = await send(method, id, conditions(etag));
    expect(answer.status, answer.text).toBe(status);

    if (status === 412 || status === 304) {
      // The current version, to try again from (RFC 9110 sections 15.4.5 and 13.1.1).
      expect(answer.headers.get("etag")).toBe(etag);
      expect(await stored(id)).toEqual(before);
    }
    if (status === 412 && method !== "HEAD") {
      expect(answer.headers.get("content-type")).toBe("application/json");
      const error = JSON.parse(answer.text) as { error: number; message: string };
      expect(error.error).toBe(412);
      expect(error.message).toMatch(new RegExp(`^plant ${id} (has changed since the version named|is at "1\\.[0-9a-z]+", a version If-None-Match names|exists, and If-None-Match: \\*)`));
    }
    if (status === 304) expect(answer.text).toBe("");
    if (status === 200) expect(await stored(id)).toEqual(method === "PATCH" ? { name: "Changed", version: 2, events: 2 } : before);
    if (status === 204) expect(await stored(id)).toBeUndefined();
  });
});

describe("on a plant that does not exist", () => {
  // RFC 9110 section 13.2.1: without conditions the answer would be 404, so they are not evaluated.
  it.each(ROWS)("$method with $name: 404", async ({ method, conditions }) => {
    const id = nextId++;
    const answer = await send(method, id, conditions('"1.0"'));
    expect(answer.status, answer.text).toBe(404);
    if (method !== "HEAD") expect(JSON.parse(answer.text)).toEqual({ error: 404, message: `no plant has id ${id}` });
    expect(await stored(id)).toBeUndefined();
  });
});

describe("the order of a change's checks (RFC 9110 section 13.2.1)", () => {
  it("a false condition is a 412 before the body is read: a stale If-Match with a body that is not JSON", async () => {
    const id = nextId++;
    const etag = await seed(id);
    const answer = await fetch(`${app.url}/plants/${id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/merge-patch+json", "if-match": OTHER },
      body: "{not json",
    });
    expect(answer.status).toBe(412);
    expect(answer.headers.get("etag")).toBe(etag);
  });

  it("a malformed condition is a 400, whether or not the plant exists", async () => {
    const present = nextId++;
    await seed(present);
    for (const id of [present, nextId++]) {
      for (const method of ["GET", "PATCH", "DELETE"] as const) {
        const answer = await send(method, id, { "if-none-match": "1.0" });
        expect(answer.status, `${method} ${id}`).toBe(400);
        expect(JSON.parse(answer.text)).toMatchObject({ error: 400, message: expect.stringMatching(/^If-None-Match must be/) });
      }
    }
  });
});

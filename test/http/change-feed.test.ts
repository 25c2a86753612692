import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { revokeApiTokens } from "@/test/support/api-tokens";
import { makeAccount } from "@/test/support/accounts";
import { createToken } from "@/test/support/app-server";
import { type ChangeStreamClient, openChangeStream, openUnreadStream, type StreamEvent } from "@/test/support/change-stream";
import { signInThrough } from "@/test/support/next-auth-sign-in";
import { serverSideOf } from "@/test/support/server-connections";
import { type SharedApp, sharedAppWithTokens } from "@/test/support/shared-app";

// GET /plants/events over HTTP against the built app (issue 32): the change
// feed's events, their positions and JSON, resuming, filters, refusals, the
// end of a stream whose token is revoked (and of its connection, when its
// client does not read the end: issue 44), and the limit on open streams. On
// the app the HTTP files share: this file's plants have ids from 3200000 to
// 3299999, the same past 2^53, and tags of its own, and its streams follow
// only those (other files write meanwhile).

let app: SharedApp;
let writeToken: string;
let readToken: string;
const open: ChangeStreamClient[] = [];

beforeAll(async () => ({ app, writeToken, readToken } = await sharedAppWithTokens()));
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});

const BASE = 9007199254740993n + 3_200_000n;
let nextId = BASE;
const newId = () => nextId++;
const newTag = () => `feed-${randomUUID().slice(0, 8)}`;

async function follow(query = "", { token = readToken, headers = {} }: { token?: string; headers?: Record<string, string> } = {}): Promise<ChangeStreamClient> {
  const stream = await openChangeStream(`${app.url}/plants/events${query}`, { authorization: `Bearer ${token}`, ...headers });
  open.push(stream);
  return stream;
}

async function write(method: string, path: string, body?: string): Promise<number> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${writeToken}`, ...(body && { "content-type": method === "PATCH" ? "application/merge-patch+json" : "application/json" }) },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

type EventBody = { type: string; timestamp: string; data: { id: bigint; name: string; tag?: string } };

const bodyOf = (event: StreamEvent) => parseExactJson(event.data) as EventBody;
const summary = (events: StreamEvent[]) => events.map((event) => [event.event, bodyOf(event).data.id, bodyOf(event).data.name]);

describe("GET /plants/events", () => {
  it("sends each change as it commits: its position as the id, its type, and the webhooks' JSON, ids exact past 2^53", async () => {
    const tag = newTag();
    const stream = await follow(`?tag=${tag}`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    expect(stream.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream.headers.get("ratelimit")).toMatch(/^"api";r=\d+;t=\d+$/);

    const [a, b] = [newId(), newId()];
    expect(await write("POST", "/plants", `{"id":${a},"name":"Monstera","tag":"${tag}"}`)).toBe(200);
    expect(await write("PATCH", `/plants/${a}`, '{"name":"Monstera deliciosa"}')).toBe(200);
    // A patch that changes nothing is no change.
    expect(await write("PATCH", `/plants/${a}`, '{"name":"Monstera deliciosa"}')).toBe(200);
    expect(await write("POST", "/plants", `{"id":${b},"name":"Fern","tag":"${tag}"}`)).toBe(200);
    expect(await write("DELETE", `/plants/${a}`)).toBe(204);

    const events = await stream.waitFor(4);
    expect(summary(events)).toEqual([
      ["plant.created", a, "Monstera"],
      ["plant.updated", a, "Monstera deliciosa"],
      ["plant.created", b, "Fern"],
      ["plant.deleted", a, "Monstera deliciosa"],
    ]);
    expect(bodyOf(events[0]!)).toEqual({ type: "plant.created", timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), data: { id: a, name: "Monstera", tag } });
    // The id digit for digit in the text itself, not only once parsed.
    expect(events[0]!.data).toContain(`"id":${a},`);
    const positions = events.map((event) => BigInt(event.id!));
    expect(positions).toEqual([...positions].sort((x, y) => (x < y ? -1 : 1)));
    expect(new Set(positions).size).toBe(4);
    expect(stream.raw()).toMatch(/^retry: \d+\n/);
  });

  it("resumes after Last-Event-ID, or ?after= for clients that cannot send it: every change since, none repeated, then live", async () => {
    const tag = newTag();
    const first = await follow(`?tag=${tag}`);
    const ids = [newId(), newId(), newId(), newId(), newId()];
    for (const id of ids.slice(0, 3)) expect(await write("POST", "/plants", `{"id":${id},"name":"Plant ${id}","tag":"${tag}"}`)).toBe(200);
    const seen = await first.waitFor(3);
    first.close();
    // While it was away: two more, and a delete.
    for (const id of ids.slice(3)) expect(await write("POST", "/plants", `{"id":${id},"name":"Plant ${id}","tag":"${tag}"}`)).toBe(200);
    expect(await write("DELETE", `/plants/${ids[0]}`)).toBe(204);

    const expected = [
      ["plant.created", ids[1], `Plant ${ids[1]}`],
      ["plant.created", ids[2], `Plant ${ids[2]}`],
      ["plant.created", ids[3], `Plant ${ids[3]}`],
      ["plant.created", ids[4], `Plant ${ids[4]}`],
      ["plant.deleted", ids[0], `Plant ${ids[0]}`],
    ];
    const byHeader = await follow(`?tag=${tag}`, { headers: { "last-event-id": seen[0]!.id! } });
    const byQuery = await follow(`?tag=${tag}&after=${seen[0]!.id}`);
    // A reconnecting EventSource sends Last-Event-ID with the URL it first opened: the header wins.
    const both = await follow(`?tag=${tag}&after=0`, { headers: { "last-event-id": seen[0]!.id! } });
    for (const stream of [byHeader, byQuery, both]) expect(summary(await stream.waitFor(5))).toEqual(expected);
    expect(byHeader.events.slice(0, 2).map((event) => event.id)).toEqual(seen.slice(1).map((event) => event.id));

    // Then live, on each.
    const late = newId();
    expect(await write("POST", "/plants", `{"id":${late},"name":"Late","tag":"${tag}"}`)).toBe(200);
    for (const stream of [byHeader, byQuery, both]) expect(summary((await stream.waitFor(6)).slice(5))).toEqual([["plant.created", late, "Late"]]);
    expect(byHeader.events.length).toBe(6);
  });

  it("follows the plants named by ?id=, and sees a plant leave and join a ?tag=", async () => {
    const [tag, other] = [newTag(), newTag()];
    const [a, b, c] = [newId(), newId(), newId()];
    const byIds = await follow(`?id=${a}&id=${c}`);
    const byTag = await follow(`?tag=${tag}`);
    for (const id of [a, b, c]) expect(await write("POST", "/plants", `{"id":${id},"name":"P${id}","tag":"${tag}"}`)).toBe(200);
    expect(await write("PATCH", `/plants/${a}`, `{"tag":"${other}"}`)).toBe(200);
    expect(await write("PATCH", `/plants/${a}`, '{"name":"Away"}')).toBe(200);
    expect(await write("PATCH", `/plants/${a}`, `{"tag":"${tag}"}`)).toBe(200);

    expect(summary(await byIds.waitFor(5))).toEqual([
      ["plant.created", a, `P${a}`],
      ["plant.created", c, `P${c}`],
      ["plant.updated", a, `P${a}`],
      ["plant.updated", a, "Away"],
      ["plant.updated", a, "Away"],
    ]);
    // Leaving the tag, and coming back to it; not the rename made under the other tag.
    const tagged = await byTag.waitFor(5);
    expect(summary(tagged)).toEqual([
      ["plant.created", a, `P${a}`],
      ["plant.created", b, `P${b}`],
      ["plant.created", c, `P${c}`],
      ["plant.updated", a, `P${a}`],
      ["plant.updated", a, "Away"],
    ]);
    expect([bodyOf(tagged[3]!).data.tag, bodyOf(tagged[4]!).data.tag]).toEqual([other, tag]);
  });

  it("refuses what it cannot follow with an Error body that says why", async () => {
    const refusals: [string, Record<string, string>, number, RegExp][] = [
      ["?after=-1", {}, 400, /^after must be a position in the change feed: an integer from 0 to 9223372036854775807$/],
      ["?after=9223372036854775808", {}, 400, /after must be a position/],
      ["?after=1&after=2", {}, 400, /after must be a position .*, given once/],
      ["", { "last-event-id": "plant-42" }, 400, /^Last-Event-ID must be a position/],
      ["?id=fern", {}, 400, /^id must be an integer/],
      ["?since=1", {}, 400, /^unknown query parameter: since; known: after, id, tag$/],
      ["?tag=", {}, 400, /^tag must not be empty/],
      ["?after=9223372036854775807", {}, 410, /^position 9223372036854775807 is past the newest change, \d+: .*re-read the plants with GET \/plants, then follow from now$/],
      ["", { accept: "application/json" }, 406, /text\/event-stream/],
    ];
    for (const [query, headers, status, message] of refusals) {
      const stream = await follow(query, { headers });
      expect({ query, headers, status: stream.status }).toEqual({ query, headers, status });
      expect(JSON.parse(stream.errorBody!)).toEqual({ error: status, message: expect.stringMatching(message), ...(status === 400 && { details: expect.any(Array) }) });
    }
    const anonymous = await openChangeStream(`${app.url}/plants/events`, {});
    expect(anonymous.status).toBe(401);
  });

  it("answers 410 for a position older than the oldest change kept, naming CHANGE_FEED_RETENTION", async () => {
    const tag = newTag();
    for (const id of [newId(), newId()]) expect(await write("POST", "/plants", `{"id":${id},"name":"Old","tag":"${tag}"}`)).toBe(200);
    // As the retention does, every change but the newest gone.
    await app.database.query(`DELETE FROM "plant_changes" WHERE "position" < (SELECT max("position") FROM "plant_changes")`);
    const [row] = await app.database.query<{ oldest: bigint | string }>(`SELECT min("position") AS "oldest" FROM "plant_changes"`);
    const oldest = row!.oldest;
    const gone = await follow(`?after=${BigInt(oldest) - 2n}`);
    expect(gone.status).toBe(410);
    expect(JSON.parse(gone.errorBody!)).toEqual({ error: 410, message: `position ${BigInt(oldest) - 2n} is older than the oldest change kept, ${oldest} (changes are kept for 7 days: CHANGE_FEED_RETENTION); re-read the plants with GET /plants, then follow from now` });
    // From just before the oldest kept, nothing is missing.
    expect((await follow(`?after=${BigInt(oldest) - 1n}`)).status).toBe(200);
  });

  it("ends a stream once its token is revoked, and only that token's", async () => {
    const label = `feed-revoked-${randomUUID()}`;
    const revoked = await createToken(app.database, ["plants:read"], "1h", label);
    const doomed = await follow("", { token: revoked });
    const kept = await follow("");
    expect([doomed.status, kept.status]).toEqual([200, 200]);
    await revokeApiTokens(app.database, label);
    // Ended as an answer ends, not cut: a client that reads sees the end, and reconnects.
    expect(await doomed.ended).toBe("end");
    // The other stream still delivers.
    const tag = newTag();
    const keptTagged = await follow(`?tag=${tag}`);
    const id = newId();
    expect(await write("POST", "/plants", `{"id":${id},"name":"After","tag":"${tag}"}`)).toBe(200);
    expect(summary(await keptTagged.waitFor(1))).toEqual([["plant.created", id, "After"]]);
    // Its token no longer opens one.
    expect((await follow("", { token: revoked })).status).toBe(401);
  });

  it("resets the connection of a revoked token's stream whose client does not read the end, once it has had END_GRACE_MS to", async () => {
    const label = `feed-unread-${randomUUID()}`;
    const revoked = await createToken(app.database, ["plants:read"], "1h", label);
    const unread = await openUnreadStream(`${app.url}/plants/events`, { authorization: `Bearer ${revoked}` });
    try {
      expect(unread.status).toBe(200);
      const serverSide = () => serverSideOf(Number(new URL(app.url).port), unread.localPort).map(({ state }) => state);
      expect(serverSide()).toEqual(["ESTAB"]);
      await revokeApiTokens(app.database, label);
      // Neither kept alive (the tests' apps keep an idle connection ten minutes) nor left to wait in FIN-WAIT-2 for a close that never comes.
      await expect.poll(serverSide, { interval: 250 }).toEqual([]);
    } finally {
      unread.destroy();
    }
  });

  it("ends a staff member's stream once their sessions are ended, and once their account is deactivated", async () => {
    const email = `feed-${randomUUID().slice(0, 8)}@plants.example`;
    const password = "correct horse battery staple";
    await makeAccount(app.database, { email, role: "staff", password });
    // As the staff pages' EventSource sends it: the session cookie, from the app's own origin.
    const asBrowser = async () => {
      const { sessionToken } = await signInThrough(app.url, "credentials", { email, password });
      const stream = await openChangeStream(`${app.url}/plants/events`, { cookie: `next-auth.session-token=${sessionToken}`, "sec-fetch-site": "same-origin" });
      open.push(stream);
      expect(stream.status).toBe(200);
      return stream;
    };
    const signedOut = await asBrowser();
    // "Sign out everywhere" and a new password void the sessions issued before them.
    await app.database.query("UPDATE users SET sessions_valid_from = $1 WHERE email = $2", [new Date().toISOString(), email]);
    await signedOut.ended;
    const deactivated = await asBrowser();
    await app.database.query("UPDATE users SET deactivated_at = $1 WHERE email = $2", [new Date().toISOString(), email]);
    await deactivated.ended;
  });

  it("holds at most LIVE_STREAMS_PER_CALLER open streams per token (25 by default): 429 past them, a place again once one closes", async () => {
    const token = await createToken(app.database, ["plants:read"]);
    const streams = await Promise.all(Array.from({ length: 25 }, () => follow("", { token })));
    expect(streams.map((stream) => stream.status)).toEqual(Array(25).fill(200));
    const refused = await follow("", { token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(JSON.parse(refused.errorBody!)).toEqual({ error: 429, message: "this token or staff member already holds 25 open event streams, the most allowed; close one first" });
    streams[0]!.close();
    await expect.poll(async () => (await follow("", { token })).status, { timeout: 180_000, interval: 250 }).toBe(200);
  });
});

// What the owners' Activity and Team pages follow: the new activity records
// their filters take, to an owner's session only.
describe("GET /activity/events", () => {
  const password = "correct horse battery staple";

  async function signedIn(role: "owner" | "staff") {
    const email = `activity-${randomUUID().slice(0, 8)}@plants.example`;
    const id = await makeAccount(app.database, { email, role, password });
    const { sessionToken } = await signInThrough(app.url, "credentials", { email, password });
    return { id, email, cookie: `next-auth.session-token=${sessionToken}` };
  }

  async function followActivity(query: string, headers: Record<string, string>): Promise<ChangeStreamClient> {
    const stream = await openChangeStream(`${app.url}/activity/events${query}`, { "sec-fetch-site": "same-origin", ...headers });
    open.push(stream);
    return stream;
  }

  it("sends an owner each new record its filters take, by id and kind of change, and resumes after a record's id", async () => {
    const owner = await signedIn("owner");
    const [followed, other] = [newId(), newId()];
    const stream = await followActivity(`?plant=${followed}&action=plant.*`, { cookie: owner.cookie });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await write("POST", "/plants", `{"id":${other},"name":"Not followed"}`)).toBe(200);
    expect(await write("POST", "/plants", `{"id":${followed},"name":"Followed"}`)).toBe(200);
    expect(await write("PATCH", `/plants/${followed}`, `{"name":"Followed, renamed"}`)).toBe(200);
    const events = await stream.waitFor(2);
    expect(events.map((event) => [event.event, JSON.parse(event.data).action])).toEqual([
      ["activity.recorded", "plant.created"],
      ["activity.recorded", "plant.updated"],
    ]);
    const [created, updated] = events.map((event) => BigInt(event.id!));
    expect(events.map((event) => JSON.parse(event.data).id)).toEqual([String(created), String(updated)]);
    expect(updated!).toBeGreaterThan(created!);
    // Back after a disconnect, from the last record it had: what came after, and nothing before.
    stream.close();
    expect(await write("DELETE", `/plants/${followed}`)).toBe(204);
    const resumed = await followActivity(`?plant=${followed}`, { cookie: owner.cookie, "last-event-id": String(updated) });
    expect((await resumed.waitFor(1)).map((event) => JSON.parse(event.data).action)).toEqual(["plant.deleted"]);
  });

  it("answers staff and API tokens 404, as the owners' pages do, and names a mistaken filter or position", async () => {
    const staff = await signedIn("staff");
    const owner = await signedIn("owner");
    for (const refused of [await followActivity("", { cookie: staff.cookie }), await followActivity("", { authorization: `Bearer ${readToken}` })]) {
      expect(refused.status).toBe(404);
      expect(JSON.parse(refused.errorBody!)).toEqual({ error: 404, message: "there is no activity stream for this caller: it follows the store's activity for its owners' pages, signed in" });
    }
    const mistakes = [
      ["?after=seven", "after must be an activity record's id: an integer from 0 to 9223372036854775807"],
      ["?action=plant.eaten", expect.stringMatching(/^action must be a kind of change or a family of them: plant\.created, /)],
    ] as const;
    for (const [query, message] of mistakes) {
      const refused = await followActivity(query, { cookie: owner.cookie });
      expect([refused.status, JSON.parse(refused.errorBody!)]).toMatchObject([400, { error: 400, message }]);
    }
  });

  it("ends an owner's stream once they are made staff", async () => {
    const owner = await signedIn("owner");
    const stream = await followActivity("", { cookie: owner.cookie });
    expect(stream.status).toBe(200);
    await app.database.query("UPDATE users SET role = 'staff' WHERE id = $1", [owner.id]);
    await stream.ended;
  });
});

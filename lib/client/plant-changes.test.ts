import { describe, expect, it } from "vitest";
import { changePlant, deletePlant, readPlant } from "@/lib/client/plant-changes";

const ID = 9007199254740993n;

type Answer = { status: number; body?: string; etag?: string };

/** A fetch that answers each request with the next of `answers`, and records what was sent. */
function answering(...answers: Answer[]) {
  const sent: { url: string; init: RequestInit }[] = [];
  const fetcher = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const { status, body = null, etag } = answers.shift()!;
    return new Response(body, { status, headers: { "content-type": "application/json", ...(etag && { etag }) } });
  }) as typeof fetch;
  return { fetcher, sent };
}

describe("changePlant", () => {
  it("sends a merge patch under If-Match, ids exact, and reads the changed plant and its new ETag", async () => {
    const { fetcher, sent } = answering({ status: 200, body: '{"id":9007199254740993,"name":"Swiss cheese plant"}', etag: '"2.abc"' });
    expect(await changePlant(ID, { name: "Swiss cheese plant", tag: null }, '"1.abc"', fetcher)).toEqual({
      kind: "changed",
      stored: { plant: { id: ID, name: "Swiss cheese plant" }, etag: '"2.abc"' },
    });
    expect(sent[0]!.url).toBe("/plants/9007199254740993");
    expect(sent[0]!.init).toMatchObject({
      method: "PATCH",
      body: '{"name":"Swiss cheese plant","tag":null}',
      credentials: "same-origin",
      headers: { "content-type": "application/merge-patch+json", accept: "application/json", "if-match": '"1.abc"' },
    });
  });

  it("answers a 412 with the plant as it is now, read with its ETag", async () => {
    const { fetcher, sent } = answering(
      { status: 412, body: '{"error":412,"message":"plant 9007199254740993 has changed"}', etag: '"3.abc"' },
      { status: 200, body: '{"id":9007199254740993,"name":"Theirs","tag":"aroid"}', etag: '"3.abc"' },
    );
    expect(await changePlant(ID, { name: "Mine" }, '"2.abc"', fetcher)).toEqual({
      kind: "conflict",
      current: { plant: { id: ID, name: "Theirs", tag: "aroid" }, etag: '"3.abc"' },
    });
    expect(sent[1]!.init).toMatchObject({ headers: { accept: "application/json" }, credentials: "same-origin" });
    expect(sent[1]!.init.method).toBeUndefined();
  });

  it("answers gone for a plant deleted meanwhile, before or after a 412", async () => {
    expect(await changePlant(ID, { name: "Mine" }, '"1.a"', answering({ status: 404, body: '{"error":404,"message":"no plant"}' }).fetcher)).toEqual({ kind: "gone" });
    const deletedBetween = answering({ status: 412, body: "{}" }, { status: 404, body: "{}" });
    expect(await changePlant(ID, { name: "Mine" }, '"1.a"', deletedBetween.fetcher)).toEqual({ kind: "gone" });
  });

  it("puts a 400's details on the fields, and explains the rest", async () => {
    const body = '{"error":400,"message":"tag must not be only whitespace","details":[{"field":"tag","message":"tag must not be only whitespace"}]}';
    expect(await changePlant(ID, { tag: " " }, '"1.a"', answering({ status: 400, body }).fetcher)).toEqual({
      kind: "refused",
      fieldErrors: [{ field: "tag", message: "tag must not be only whitespace" }],
    });
    expect(await changePlant(ID, {}, '"1.a"', answering({ status: 401, body: "{}" }).fetcher)).toMatchObject({ formError: expect.stringContaining("session has ended") });
    expect(await changePlant(ID, {}, '"1.a"', answering({ status: 500, body: "<html>" }).fetcher)).toEqual({
      kind: "refused",
      fieldErrors: [],
      formError: "The plant was not saved: the server answered 500.",
    });
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    expect(await changePlant(ID, {}, '"1.a"', offline)).toMatchObject({ kind: "refused", formError: expect.stringContaining("could not be reached") });
  });
});

describe("deletePlant", () => {
  it("deletes under If-Match, and reads the other version on a 412", async () => {
    const done = answering({ status: 204 });
    expect(await deletePlant(ID, '"1.a"', done.fetcher)).toEqual({ kind: "deleted" });
    expect(done.sent[0]!.init).toMatchObject({ method: "DELETE", headers: { "if-match": '"1.a"' }, credentials: "same-origin" });
    const changed = answering({ status: 412, body: "{}" }, { status: 200, body: '{"id":9007199254740993,"name":"Theirs"}', etag: '"2.a"' });
    expect(await deletePlant(ID, '"1.a"', changed.fetcher)).toEqual({ kind: "conflict", current: { plant: { id: ID, name: "Theirs" }, etag: '"2.a"' } });
    expect(await deletePlant(ID, '"1.a"', answering({ status: 404, body: "{}" }).fetcher)).toEqual({ kind: "gone" });
  });
});

describe("readPlant", () => {
  it("refuses an answer without an ETag or with another shape", async () => {
    expect(await readPlant(ID, answering({ status: 200, body: '{"id":1,"name":"x"}' }).fetcher)).toMatchObject({ kind: "refused" });
    expect(await readPlant(ID, answering({ status: 200, body: '{"id":1}', etag: '"1.a"' }).fetcher)).toMatchObject({ kind: "refused" });
  });
});

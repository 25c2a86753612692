import { describe, expect, it } from "vitest";
import { submitPlant } from "@/lib/client/plant-submission";

const PLANT = { id: 9007199254740993n, name: "Fern" };

function answering(status: number, body: string, headers: Record<string, string> = {}) {
  const sent: { url: string; init: RequestInit }[] = [];
  const fetcher = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  }) as typeof fetch;
  return { fetcher, sent };
}

describe("submitPlant", () => {
  it("sends the id as an exact JSON integer and reads it back exactly", async () => {
    const { fetcher, sent } = answering(200, '{"id":9007199254740993,"name":"Fern"}');
    expect(await submitPlant(PLANT, fetcher)).toEqual({ ok: true, plant: PLANT, replayed: false });
    expect(sent[0]!.url).toBe("/plants");
    expect(sent[0]!.init.body).toBe('{"id":9007199254740993,"name":"Fern"}');
    expect(sent[0]!.init.credentials).toBe("same-origin");
  });

  it("tells a plant stored before by Idempotent-Replayed", async () => {
    const { fetcher } = answering(200, '{"id":9007199254740993,"name":"Fern"}', { "idempotent-replayed": "true" });
    expect(await submitPlant(PLANT, fetcher)).toEqual({ ok: true, plant: PLANT, replayed: true });
  });

  it("puts a 409 on the id field", async () => {
    const { fetcher } = answering(409, '{"error":409,"message":"a plant with id 9007199254740993 already exists with different data"}');
    expect(await submitPlant(PLANT, fetcher)).toEqual({
      ok: false,
      reason: "refused",
      status: 409,
      fieldErrors: [{ field: "id", message: "a plant with id 9007199254740993 already exists with different data; choose another id" }],
    });
  });

  it("puts each 400 detail on its field, and the rest on the form", async () => {
    const body = '{"error":400,"message":"name must not be empty; unknown field: x","details":[{"field":"name","message":"name must not be empty"},{"field":"(body)","message":"unknown field: x"}]}';
    expect(await submitPlant(PLANT, answering(400, body).fetcher)).toEqual({
      ok: false,
      reason: "refused",
      status: 400,
      fieldErrors: [{ field: "name", message: "name must not be empty" }],
      formError: "name must not be empty; unknown field: x",
    });
  });

  it("tells an ended session, other errors, a lost connection and a gateway whose app is down apart", async () => {
    expect(await submitPlant(PLANT, answering(401, '{"error":401,"message":"authentication required"}').fetcher)).toMatchObject({ ok: false, reason: "signed out", status: 401 });
    expect(await submitPlant(PLANT, answering(500, "<html>").fetcher)).toEqual({
      ok: false,
      reason: "refused",
      status: 500,
      fieldErrors: [],
      formError: "The plant was not saved: the server answered 500.",
    });
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    expect(await submitPlant(PLANT, offline)).toMatchObject({ ok: false, reason: "unreachable", status: 0 });
    expect(await submitPlant(PLANT, answering(502, "Bad Gateway").fetcher)).toMatchObject({ ok: false, reason: "unreachable", status: 502 });
  });
});

import { describe, expect, it } from "vitest";
import { importPlantBatch } from "@/lib/client/plant-batch-import";

const CSV = new Blob(["id,name\r\n9007199254740993,Fern\r\n"], { type: "application/vnd.ms-excel" });

function answering(status: number, body: string) {
  const sent: { url: string; init: RequestInit }[] = [];
  const fetcher = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  return { fetcher, sent };
}

describe("importPlantBatch", () => {
  it("sends the file as it is, as CSV with the session, and reads every result with exact ids", async () => {
    const answer = [
      '{"index":0,"line":2,"status":"stored","plant":{"id":9007199254740993,"name":"Fern"}}',
      '{"index":1,"line":3,"status":"already stored","plant":{"id":-9223372036854775808,"name":"Low","tag":"x"}}',
      '{"index":2,"line":4,"status":"conflict","error":{"error":409,"message":"line 4: a plant with id 2 already exists with different data"}}',
      '{"index":3,"line":5,"status":"invalid","error":{"error":400,"message":"line 5: name is required","details":[{"field":"name","message":"name is required"}]}}',
    ];
    const { fetcher, sent } = answering(200, `[${answer.join(",")}]`);
    expect(await importPlantBatch(CSV, fetcher)).toEqual({
      ok: true,
      results: [
        { index: 0, line: 2, status: "stored", plant: { id: 9007199254740993n, name: "Fern" } },
        { index: 1, line: 3, status: "already stored", plant: { id: -9223372036854775808n, name: "Low", tag: "x" } },
        { index: 2, line: 4, status: "conflict", error: { error: 409, message: "line 4: a plant with id 2 already exists with different data" } },
        { index: 3, line: 5, status: "invalid", error: { error: 400, message: "line 5: name is required", details: [{ field: "name", message: "name is required" }] } },
      ],
    });
    expect(sent[0]!.url).toBe("/plants/batch");
    expect(sent[0]!.init).toMatchObject({ method: "POST", body: CSV, credentials: "same-origin", headers: { "content-type": "text/csv" } });
  });

  it("says what became of the plants when the batch is refused, fails or goes unanswered", async () => {
    const refused = '{"error":400,"message":"line 1: unknown column \\"colour\\""}';
    expect(await importPlantBatch(CSV, answering(400, refused).fetcher)).toEqual({ ok: false, message: 'Nothing was imported: line 1: unknown column "colour".' });
    expect(await importPlantBatch(CSV, answering(401, '{"error":401,"message":"authentication required"}').fetcher)).toEqual({
      ok: false,
      message: "Your session has ended. Sign in again in another tab, then import again.",
    });
    expect(await importPlantBatch(CSV, answering(502, "<html>").fetcher)).toMatchObject({ ok: false, message: expect.stringMatching(/^The import failed \(the server answered 502\), so the plants may or may not have been stored\. Importing the same file again is safe/) });
    expect(await importPlantBatch(CSV, answering(200, '[{"index":0}]').fetcher)).toMatchObject({ ok: false, message: expect.stringContaining("could not be read") });
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    expect(await importPlantBatch(CSV, offline)).toMatchObject({ ok: false, message: expect.stringContaining("could not be reached") });
  });
});

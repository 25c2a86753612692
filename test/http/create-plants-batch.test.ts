import { isLosslessNumber, parse } from "lossless-json";
import { beforeAll, describe, expect, it } from "vitest";
import { type SharedApp, sharedAppWithTokens, withIds } from "@/test/support/shared-app";
import { storedPlants } from "@/test/support/test-database";
import { postDeclaring } from "@/test/support/declared-body";

// The contract of POST /plants/batch (issue 10), over HTTP against the built
// app on a database of the run's engine: each item decided as POST /plants
// would decide it, answered in the batch's order; JSON and CSV; the limits.
// (Every status against the document: openapi-contract.test.ts.)
// On the app the HTTP files share: this file's plants have ids from 1000000
// to 1999999 (OWN), from -2^63+1000 to -2^63+1999, and -1000; the int64
// edges, 2^53 and its neighbour, 1000, 2 and 2^63-2, which other files store
// too, it takes for each test that needs them (withIds).

let app: SharedApp;
let writeToken: string;
let readToken: string;

beforeAll(async () => ({ app, writeToken, readToken } = await sharedAppWithTokens()));

const JSON_TYPE = "application/json";
const CSV_TYPE = "text/csv";
const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

const OWN = { from: 1_000_000n, to: 1_999_999n };
let nextId = OWN.from;
const freshIds = (count: number) => Array.from({ length: count }, () => nextId++);
// The id of the plants this file sends to be refused, which it never stores.
const REFUSED = OWN.to;

function post(body: BodyInit, contentType: string | null = JSON_TYPE, token = writeToken, path = "/plants/batch"): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, ...(contentType !== null && { "content-type": contentType }) },
    body,
  });
}

type Plant = { id: bigint; name: string; tag?: string };
type ErrorBody = { error: number; message: string; details?: { field: string; message: string }[] };
type Result = { index: number; line?: number; status: "stored" | "already stored" | "conflict" | "invalid"; plant?: Plant; error?: ErrorBody };

/** An answer parsed as a client must: ids as exact bigints, every other number a number. */
function readJson(text: string): unknown {
  return parse(text, (key, value) => (isLosslessNumber(value) ? (key === "id" ? BigInt(value.value) : Number(value.value)) : value));
}

async function results(response: Response): Promise<Result[]> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return readJson(text) as Result[];
}

async function expectError(response: Response, status: number, message: string | RegExp): Promise<ErrorBody> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = readJson(text) as ErrorBody;
  expect(body).toMatchObject({ error: status, message: expect.stringMatching(message) });
  return body;
}

/** The plants with this file's own ids: what a refused batch must leave as it was. */
async function rowCount(): Promise<bigint> {
  const [row] = await app.database.query<{ count: bigint }>("SELECT count(*) AS count FROM plants WHERE id BETWEEN $1 AND $2", [OWN.from, OWN.to]);
  return BigInt(row!.count);
}

async function stored(id: bigint) {
  return (await app.database.query<{ id: bigint; name: string; tag: string | null }>("SELECT id, name, tag FROM plants WHERE id = $1", [id]))[0];
}

const jsonBatch = (plants: Plant[]) => `[${plants.map(({ id, name, tag }) => `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? "" : `,"tag":${JSON.stringify(tag)}`}}`).join(",")}]`;

describe("a JSON batch", () => {
  it("answers each item in the batch's order: stored, already stored, conflict or invalid with the details a single create gives", async () => {
    const [fern, ivy, moss, palm] = freshIds(4) as [bigint, bigint, bigint, bigint];
    for (const body of [`{"id":${fern},"name":"Fern"}`, `{"id":${ivy},"name":"Ivy","tag":"climber"}`]) {
      expect((await post(body, JSON_TYPE, writeToken, "/plants")).status).toBe(200);
    }
    const body = `[
      {"id":${moss},"name":"Moss","tag":"ground"},
      {"id":${fern},"name":"Fern"},
      {"id":${ivy},"name":"Ivy"},
      {"id":"x","name":"","tag":null},
      {"id":${palm},"name":"Palm","colour":"green"},
      42,
      {"id":${moss},"name":"Moss","tag":"ground"},
      {"id":${moss},"name":"Other moss"}
    ]`;
    expect(await results(await post(body))).toEqual([
      { index: 0, status: "stored", plant: { id: moss, name: "Moss", tag: "ground" } },
      { index: 1, status: "already stored", plant: { id: fern, name: "Fern" } },
      { index: 2, status: "conflict", error: { error: 409, message: `a plant with id ${ivy} already exists with different data` } },
      {
        index: 3,
        status: "invalid",
        error: {
          error: 400,
          message: "id must be an integer from -9223372036854775808 to 9223372036854775807; name must not be empty; tag must be a string",
          details: [
            { field: "id", message: "id must be an integer from -9223372036854775808 to 9223372036854775807" },
            { field: "name", message: "name must not be empty" },
            { field: "tag", message: "tag must be a string" },
          ],
        },
      },
      { index: 4, status: "invalid", error: { error: 400, message: "unknown field: colour", details: [{ field: "colour", message: "unknown field: colour" }] } },
      {
        index: 5,
        status: "invalid",
        error: { error: 400, message: "each item must be a JSON object (a NewPlant)", details: [{ field: "(item)", message: "each item must be a JSON object (a NewPlant)" }] },
      },
      { index: 6, status: "already stored", plant: { id: moss, name: "Moss", tag: "ground" } },
      { index: 7, status: "conflict", error: { error: 409, message: `a plant with id ${moss} already exists with different data` } },
    ]);
    expect(await stored(moss)).toEqual({ id: moss, name: "Moss", tag: "ground" });
    expect(await stored(ivy)).toEqual({ id: ivy, name: "Ivy", tag: "climber" });
    expect(await stored(palm)).toBeUndefined();
  });

  it("keeps ids at the int64 edges and around 2^53 exact, reads 1e3 as 1000 and refuses 2^63", () =>
    withIds(app, [MIN, MAX, 9007199254740993n, 9007199254740992n, 1000n], async () => {
      const response = await post(
        '[{"id":-9223372036854775808,"name":"min"},{"id":9223372036854775807,"name":"max"},{"id":9007199254740993,"name":"2^53+1"},' +
          '{"id":9007199254740992,"name":"2^53"},{"id":1e3,"name":"thousand"},{"id":9223372036854775808,"name":"2^63"}]',
      );
      const text = await response.clone().text();
      expect(text).toContain('"plant":{"id":-9223372036854775808,"name":"min"}');
      expect(text).toContain('"plant":{"id":9223372036854775807,"name":"max"}');
      expect(text).toContain('"plant":{"id":9007199254740993,"name":"2^53+1"}');
      const answered = await results(response);
      expect(answered.map((result) => result.status)).toEqual(["stored", "stored", "stored", "stored", "stored", "invalid"]);
      expect(answered[4]?.plant?.id).toBe(1000n);
      expect(answered[5]?.error?.details).toEqual([{ field: "id", message: "id must be an integer from -9223372036854775808 to 9223372036854775807" }]);
      for (const [id, name] of [[MIN, "min"], [MAX, "max"], [9007199254740993n, "2^53+1"], [9007199254740992n, "2^53"], [1000n, "thousand"]] as const) {
        expect(await stored(id)).toEqual({ id, name, tag: null });
      }
    }),
  );

  it("takes 1,000 plants, each stored once", async () => {
    const ids = freshIds(1_000);
    const answered = await results(await post(jsonBatch(ids.map((id) => ({ id, name: `Plant ${id}`, tag: "thousand" })))));
    expect(answered.map((result) => result.index)).toEqual(ids.map((_, index) => index));
    expect(answered.every((result, index) => result.status === "stored" && result.plant?.id === ids[index])).toBe(true);
    const rows = await app.database.query<{ count: bigint }>("SELECT count(*) AS count FROM plants WHERE tag = 'thousand'");
    expect(BigInt(rows[0]!.count)).toBe(1_000n);
  });

  it("takes 1,000 plants of the longest names and tags in 4-byte characters, within the body limit", async () => {
    const ids = Array.from({ length: 1_000 }, (_, n) => MIN + 1_000n + BigInt(n));
    const body = jsonBatch(ids.map((id) => ({ id, name: "\u{1F33F}".repeat(200), tag: "\u{1F335}".repeat(50) })));
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_000_000);
    const answered = await results(await post(body));
    expect(answered.filter((result) => result.status === "stored")).toHaveLength(1_000);
  });

  it("refuses 1,001 plants as a whole, naming the limit, and stores none of them", async () => {
    const before = await rowCount();
    const ids = freshIds(1_001);
    const body = await expectError(await post(jsonBatch(ids.map((id) => ({ id, name: "One too many" })))), 400, "a batch holds at most 1000 plants");
    expect(body.details).toEqual([{ field: "(body)", message: "a batch holds at most 1000 plants; send more in several batches" }]);
    expect(await rowCount()).toBe(before);
  });

  it("answers an empty batch with an empty list", async () => {
    expect(await results(await post("[]"))).toEqual([]);
  });

  it.each([
    ["an object", `{"id":${REFUSED},"name":"Fern"}`, /must be a JSON array of plants/],
    ["a string", '"plants"', /must be a JSON array of plants/],
    ["null", "null", /must be a JSON array of plants/],
    ["malformed JSON", `[{"id":${REFUSED},"name":"Fern"},`, /not valid JSON/],
    ["an empty body", "", /body is empty; send a JSON array of plants/],
  ])("refuses %s as a whole with 400, storing nothing", async (_, body, message) => {
    const before = await rowCount();
    await expectError(await post(body), 400, message);
    expect(await rowCount()).toBe(before);
  });

  it("refuses a whole request that is not valid UTF-8", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`[{"id":${REFUSED},"name":"`), 0xff, ...new TextEncoder().encode('"}]')]);
    await expectError(await post(bytes), 400, "not valid UTF-8");
  });
});

describe("a CSV batch", () => {
  it("reads RFC 4180: quoted commas and quotes, a quoted line break, a header in any order, guarded formulas; each result names its line", () =>
    withIds(app, [MAX - 1n], async () => {
      const ids = freshIds(6);
      const csv = [
        "tag,name,id",
        `indoor,"Fern, Boston",${ids[0]}`,
        `,"Ivy ""the climber""",${ids[1]}`,
        `x,"Multi`,
        `line",${ids[2]}`,
        "",
        `'=SUM(A1:A2),'@cmd,${ids[3]}`,
        `,'-Fern,9223372036854775806`,
        `,''quoted,-1e3`,
        `,Bad id,12abc`,
        `,Short`,
        `,'Fern,${ids[4]}`,
        `"",Empty tag,${ids[5]}`,
      ].join("\r\n");
      const answered = await results(await post(csv, CSV_TYPE));
      expect(answered).toEqual([
        { index: 0, line: 2, status: "stored", plant: { id: ids[0], name: "Fern, Boston", tag: "indoor" } },
        { index: 1, line: 3, status: "stored", plant: { id: ids[1], name: 'Ivy "the climber"' } },
        {
          index: 2,
          line: 4,
          status: "invalid",
          error: { error: 400, message: "line 4: name must not contain control characters", details: [{ field: "name", message: "name must not contain control characters" }] },
        },
        { index: 3, line: 7, status: "stored", plant: { id: ids[3], name: "@cmd", tag: "=SUM(A1:A2)" } },
        { index: 4, line: 8, status: "stored", plant: { id: MAX - 1n, name: "-Fern" } },
        { index: 5, line: 9, status: "stored", plant: { id: -1000n, name: "'quoted" } },
        {
          index: 6,
          line: 10,
          status: "invalid",
          error: {
            error: 400,
            message: "line 10: id must be an integer from -9223372036854775808 to 9223372036854775807",
            details: [{ field: "id", message: "id must be an integer from -9223372036854775808 to 9223372036854775807" }],
          },
        },
        {
          index: 7,
          line: 11,
          status: "invalid",
          error: { error: 400, message: "line 11: the row has 2 cells; the header names 3", details: [{ field: "(row)", message: "the row has 2 cells; the header names 3" }] },
        },
        // A lone apostrophe before anything but a formula character is the name's own.
        { index: 8, line: 12, status: "stored", plant: { id: ids[4], name: "'Fern" } },
        { index: 9, line: 13, status: "stored", plant: { id: ids[5], name: "Empty tag" } },
      ]);
      expect(await stored(ids[3]!)).toEqual({ id: ids[3], name: "@cmd", tag: "=SUM(A1:A2)" });
      expect(await stored(ids[5]!)).toEqual({ id: ids[5], name: "Empty tag", tag: null });
      expect(await stored(ids[2]!)).toBeUndefined();

      // The same file again: nothing new, nothing changed.
      const again = await results(await post(csv, CSV_TYPE));
      expect(again.map((result) => result.status)).toEqual(answered.map((result) => (result.status === "stored" ? "already stored" : result.status)));
    }),
  );

  it("reads LF line ends, a byte order mark, no tag column, and an empty or missing id or name as absent", async () => {
    const [id] = freshIds(1);
    const csv = `\ufeffname,id\nFern,${id}\n,${id! + 1n}\nIvy,\n`;
    const answered = await results(await post(csv, "text/csv; charset=utf-8; header=present"));
    expect(answered).toEqual([
      { index: 0, line: 2, status: "stored", plant: { id, name: "Fern" } },
      { index: 1, line: 3, status: "invalid", error: { error: 400, message: "line 3: name is required", details: [{ field: "name", message: "name is required" }] } },
      { index: 2, line: 4, status: "invalid", error: { error: 400, message: "line 4: id is required", details: [{ field: "id", message: "id is required" }] } },
    ]);
  });

  it("reads ids exactly as the JSON reader does: 007, +1, 0x10, 1.5 and spaces are not ids", () =>
    withIds(app, [2n], async () => {
      const csv = ["id,name", "007,a", "+1,b", "0x10,c", "1.5,d", " 1,e", "2.0e0,f"].join("\n");
      const answered = await results(await post(csv, CSV_TYPE));
      expect(answered.map((result) => result.status)).toEqual(["invalid", "invalid", "invalid", "invalid", "invalid", expect.stringMatching(/stored/)]);
      expect(answered[5]?.plant?.id).toBe(2n);
    }),
  );

  it("answers a file of only a header with an empty list", async () => {
    expect(await results(await post("id,name,tag\r\n", CSV_TYPE))).toEqual([]);
  });

  it.each([
    ["an unknown column", `id,name,colour\n${REFUSED},a,green\n`, 'line 1: unknown column "colour"'],
    ["a column named twice", `id,name,name\n${REFUSED},a,b\n`, "line 1: the column name is named twice"],
    ["no id column", "name,tag\na,b\n", "line 1: no column id"],
    ["a header in capitals", `ID,Name\n${REFUSED},a\n`, 'line 1: unknown column "ID"'],
    ["no header at all", "\r\n\r\n", "the CSV has no header row"],
  ])("refuses %s in the header as a whole, storing nothing", async (_, csv, message) => {
    const before = await rowCount();
    await expectError(await post(csv, CSV_TYPE), 400, message);
    expect(await rowCount()).toBe(before);
  });

  it.each([
    ["an unclosed quote", `id,name\n${nextId},Fine\n${nextId + 1n},"never\nclosed\n`, "line 3: a quoted field is never closed"],
    ["a quote inside an unquoted field", `id,name\r\n${nextId},"two\r\nlines"\r\n\r\n${nextId + 1n},say "hi"\r\n`, "line 5: a field that is not quoted holds a quote"],
  ])("refuses a malformed file (%s) as a whole, naming the line, storing nothing", async (_, csv, message) => {
    const before = await rowCount();
    await expectError(await post(csv, CSV_TYPE), 400, message);
    expect(await rowCount()).toBe(before);
  });

  it("takes 1,000 rows and refuses 1,001, storing none of them", async () => {
    const rows = (ids: bigint[]) => ["id,name", ...ids.map((id) => `${id},CSV plant`)].join("\n");
    const before = await rowCount();
    await expectError(await post(rows(freshIds(1_001)), CSV_TYPE), 400, "a batch holds at most 1000 plants");
    expect(await rowCount()).toBe(before);
    const answered = await results(await post(rows(freshIds(1_000)), CSV_TYPE));
    expect(answered.filter((result) => result.status === "stored")).toHaveLength(1_000);
    expect(answered.at(-1)).toMatchObject({ index: 999, line: 1001 });
  });
});

describe("the request", () => {
  it.each([
    ["no Content-Type", null, /has no Content-Type; Content-Type must be application\/json or text\/csv/],
    ["text/plain", "text/plain", /unsupported media type text\/plain/],
    ["form data", "application/x-www-form-urlencoded", /unsupported media type/],
    ["JSON in another charset", "application/json; charset=iso-8859-1", /unsupported charset iso-8859-1/],
    ["CSV in another charset", "text/csv; charset=windows-1252", /unsupported charset windows-1252/],
  ])("%s gets 415", async (_, type, message) => {
    const body = type?.startsWith("text/csv") ? `id,name\n${REFUSED},a\n` : `[{"id":${REFUSED},"name":"a"}]`;
    await expectError(await post(new Blob([body]), type), 415, message);
  });

  it("a body over 2 MiB gets 413, and the connection stays usable", async () => {
    const json = jsonBatch([{ id: nextId++, name: "Fern" }]);
    await expectError(await post(json + " ".repeat(2 * 1024 * 1024 + 1 - json.length)), 413, "larger than 2097152 bytes");
    expect((await post(jsonBatch([{ id: nextId++, name: "Fern" }]))).status).toBe(200);
  });

  it("a body declared far over the limit gets 413 without being read, and the connection closed", async () => {
    const response = await postDeclaring(`${app.url}/plants/batch`, { authorization: `Bearer ${writeToken}`, "content-type": JSON_TYPE }, 8 * 1024 * 1024);
    expect(response.headers.get("connection")).toBe("close");
    await expectError(response, 413, "larger than 2097152 bytes");
  });

  it("POST /plants keeps its own limit of 16 KiB", async () => {
    await expectError(await post(`{"id":${nextId++},"name":"${"a".repeat(17 * 1024)}"}`, JSON_TYPE, writeToken, "/plants"), 413, "larger than 16384 bytes");
  });

  it("needs a token with plants:write", async () => {
    const response = await post(jsonBatch([{ id: nextId++, name: "Fern" }]), JSON_TYPE, readToken);
    expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    await expectError(response, 403, "lacks the plants:write scope");
  });

  it.each(["GET", "PUT", "PATCH", "DELETE"])("%s /plants/batch gets 405 with Allow", async (method) => {
    const response = await fetch(`${app.url}/plants/batch`, { method, headers: { authorization: `Bearer ${writeToken}` } });
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    await expectError(response, 405, `method ${method} is not allowed`);
  });
});

describe("concurrency", () => {
  it("a burst of batches and single creates sharing ids stores one row per id, and every answer matches what was stored", async () => {
    const ids = freshIds(300);
    // Four batches in different orders and one of two names per id, and single creates of every tenth id.
    const batches = [0, 1, 2, 3].map((writer) => {
      const order = writer % 2 === 0 ? ids : [...ids].reverse();
      return order.map((id) => ({ id, name: `Writer ${writer % 2}` }));
    });
    const singles = ids.filter((_, n) => n % 10 === 0).map((id) => ({ id, name: "Single" }));
    const [batchAnswers, singleAnswers] = await Promise.all([
      Promise.all(batches.map(async (batch, writer) => results(await post(writer === 3 ? toCsv(batch) : jsonBatch(batch), writer === 3 ? CSV_TYPE : JSON_TYPE)))),
      Promise.all(singles.map((plant) => post(`{"id":${plant.id},"name":"${plant.name}"}`, JSON_TYPE, writeToken, "/plants"))),
    ]);
    const rows = new Map((await storedPlants(app.database, { from: ids[0]!, to: ids.at(-1)! })).map((plant) => [plant.id, plant.name]));
    expect(ids.every((id) => rows.has(id))).toBe(true);
    const storedBy = new Map<bigint, number>();
    batches.forEach((batch, writer) =>
      batch.forEach((plant, n) => {
        const result = batchAnswers[writer]![n]!;
        const same = rows.get(plant.id) === plant.name;
        expect(result.status === "stored" || result.status === "already stored", `writer ${writer}, id ${plant.id}`).toBe(same);
        if (result.status === "stored") storedBy.set(plant.id, (storedBy.get(plant.id) ?? 0) + 1);
      }),
    );
    singles.forEach((plant, n) => {
      const status = singleAnswers[n]!.status;
      expect(status, `single ${plant.id}`).toBe(rows.get(plant.id) === "Single" ? 200 : 409);
      if (status === 200) storedBy.set(plant.id, (storedBy.get(plant.id) ?? 0) + 1);
    });
    // Each id was written once: by one batch, or by its single create.
    expect(ids.filter((id) => storedBy.get(id) !== 1)).toEqual([]);
  });
});

function toCsv(plants: Plant[]): string {
  return ["id,name", ...plants.map((plant) => `${plant.id},${plant.name}`)].join("\r\n");
}

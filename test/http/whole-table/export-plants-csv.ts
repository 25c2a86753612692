import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { unguardCsvText } from "@/lib/plants/csv-cells";
import type { AppServer, AppWithTokens } from "@/test/support/app-server";
import { insertPlants } from "@/test/support/insert-plants";
import { type StoredPlant, storedPlants } from "@/test/support/test-database";

// GET /plants with Accept: text/csv over HTTP against the built app (issue
// 10): RFC 4180 text, exact ids, the formula guard, the same filters as the
// JSON list, and an export of thousands of plants that csv-parse reads back
// to exactly what the database holds.
// On the app test/http/whole-table.test.ts starts, not the one the other HTTP
// files share, emptied of plants first: the export without filters is the
// whole table, byte for byte, and the large export empties the table for 5,000
// plants with ids anywhere in int64.

export function describeExportPlantsCsv(ownApp: () => AppWithTokens): void {
  let app: AppServer;
  let writeToken: string;
  let readToken: string;

  beforeAll(() => void ({ app, writeToken, readToken } = ownApp()));

  const CSV_TYPE = "text/csv; charset=utf-8; header=present";

  async function exportCsv(query = "", headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: Headers; text: string }> {
    const response = await fetch(`${app.url}/plants${query}`, { method, headers: { authorization: `Bearer ${readToken}`, accept: "text/csv", ...headers } });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  async function create(id: bigint, name: string, tag?: string): Promise<void> {
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
      body: `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? "" : `,"tag":${JSON.stringify(tag)}`}}`,
    });
    expect(response.status).toBe(200);
  }

  /** A CSV export read back as plants, by a real CSV parser, with the formula guard undone. */
  function readBack(text: string): StoredPlant[] {
    const [header, ...records] = parse(text, { bom: false, relax_column_count: false }) as string[][];
    expect(header).toEqual(["id", "name", "tag"]);
    return records.map(([id = "", name = "", tag = ""]) => ({ id: BigInt(id), name: unguardCsvText(name), tag: tag === "" ? null : unguardCsvText(tag) }));
  }

  describe("a small export, byte for byte", () => {
    beforeAll(async () => {
      await create(9223372036854775807n, "Highest", "edge");
      await create(-9223372036854775808n, "Lowest");
      await create(9007199254740993n, "Past 2^53, just", "tropical");
      await create(1n, 'The "Queen" fern', "indoor");
      await create(2n, "=HYPERLINK(\"http://evil.example\",\"click\")", "+tag");
      await create(3n, "-5 degrees hardy", "@home");
      await create(4n, "'Quoted already", "'");
      await create(5n, "  Spaced,  out  ", "a,b");
      await create(6n, "Ёлка 🌲", "日本");
    });

    it("writes RFC 4180 CSV: a header, CRLF after every record, quotes where needed, exact ids, guarded text", async () => {
      const { status, headers, text } = await exportCsv();
      expect(status).toBe(200);
      expect(headers.get("content-type")).toBe(CSV_TYPE);
      expect(headers.get("content-disposition")).toBe('attachment; filename="plants.csv"');
      expect(headers.get("cache-control")).toBe("no-store");
      expect(headers.get("vary")?.split(/\s*,\s*/)).toEqual(expect.arrayContaining(["Accept", "Prefer"]));
      expect(headers.get("link")).toBeNull();
      expect(text).toBe(
        [
          "id,name,tag",
          "-9223372036854775808,Lowest,",
          '1,"The ""Queen"" fern",indoor',
          `2,"'=HYPERLINK(""http://evil.example"",""click"")",'+tag`,
          "3,'-5 degrees hardy,'@home",
          "4,''Quoted already,''",
          '5,"  Spaced,  out  ","a,b"',
          "6,Ёлка 🌲,日本",
          '9007199254740993,"Past 2^53, just",tropical',
          "9223372036854775807,Highest,edge",
          "",
        ].join("\r\n"),
      );
      expect(readBack(text)).toEqual(await storedPlants(app.database));
    });

    it("applies tag, q and the after cursor as the JSON list does", async () => {
      expect((await exportCsv("?tag=indoor")).text).toBe('id,name,tag\r\n1,"The ""Queen"" fern",indoor\r\n');
      expect((await exportCsv("?q=FERN")).text).toBe('id,name,tag\r\n1,"The ""Queen"" fern",indoor\r\n');
      expect(readBack((await exportCsv("?q=%2C")).text).map((plant) => plant.id)).toEqual([2n, 5n, 9007199254740993n]);
      expect((await exportCsv("?after=6")).text).toBe('id,name,tag\r\n9007199254740993,"Past 2^53, just",tropical\r\n9223372036854775807,Highest,edge\r\n');
      expect((await exportCsv("?tag=nothing")).text).toBe("id,name,tag\r\n");
    });

    it("counts the whole match on request, and answers HEAD with the headers alone", async () => {
      const counted = await exportCsv("?q=e", { prefer: "count=exact" });
      expect(counted.headers.get("x-total-count")).toBe(String(readBack(counted.text).length));
      expect(counted.headers.get("preference-applied")).toBe("count=exact");
      expect((await exportCsv("?q=e")).headers.get("x-total-count")).toBeNull();
      const head = await exportCsv("?tag=edge", { prefer: "count=exact" }, "HEAD");
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe(CSV_TYPE);
      expect(head.headers.get("x-total-count")).toBe("1");
      expect(head.text).toBe("");
    });

    it("is chosen by Accept's weights and wildcards (RFC 9110)", async () => {
      for (const accept of ["text/csv", "text/*", "application/json;q=0.5, text/csv", "text/csv;charset=utf-8", "*/*;q=0.1, text/csv;q=0.2"]) {
        expect((await exportCsv("?tag=edge", { accept })).headers.get("content-type"), accept).toBe(CSV_TYPE);
      }
      for (const accept of ["application/json, text/csv", "text/csv;q=0.5, */*", "text/csv;q=0, */*"]) {
        expect((await exportCsv("?tag=edge", { accept })).headers.get("content-type"), accept).toBe("application/json");
      }
    });

    it("refuses limit, and any bad query, with a JSON Error before any CSV", async () => {
      const limited = await exportCsv("?limit=10");
      expect(limited.status).toBe(400);
      expect(limited.headers.get("content-type")).toBe("application/json");
      const message = "limit does not apply to a CSV export, which answers every matching plant; leave it out (after= resumes an export)";
      expect(parseExactJson(limited.text)).toEqual({ error: 400n, message, details: [{ field: "limit", message }] });
      const empty = await exportCsv("?tag=");
      expect(empty.status).toBe(400);
      expect(parseExactJson(empty.text)).toMatchObject({ error: 400n, details: [{ field: "tag" }] });
      const unknown = await exportCsv("?sort=name");
      expect(parseExactJson(unknown.text)).toMatchObject({ error: 400n, message: "unknown query parameter: sort; known: after, tag, q" });
    });

    it("needs a token with plants:read like the list", async () => {
      const response = await fetch(`${app.url}/plants`, { headers: { accept: "text/csv" } });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/json");
    });
  });

  // Names a CSV writer can get wrong, and names any writer gets right.
  const NAME_PARTS = ["fern", "Ivy", ",", '"', "'", "=", "+", "-", "@", " ", "é", "Σ", "🌵", "日本", ";", "\\", "%"];

  /** A small deterministic generator (mulberry32): the same plants on every run. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function manyPlants(count: number): StoredPlant[] {
    const next = random(10);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const ids = new Set<bigint>([-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n, 0n]);
    while (ids.size < count) ids.add(BigInt.asIntN(64, (BigInt(Math.floor(next() * 2 ** 32)) << 32n) | BigInt(Math.floor(next() * 2 ** 32))));
    return [...ids].map((id, index) => {
      let name = Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(NAME_PARTS)).join("");
      if (name.trim() === "") name = `plant${name}`;
      if (index % 97 === 0) name = "x".repeat(200);
      return { id, name, tag: next() < 0.3 ? null : pick(["indoor", "outdoor", "=cmd", "-", "a,b", '"q"']) };
    });
  }

  describe("a large export", () => {
    const COUNT = 5_000;

    beforeAll(async () => {
      await app.database.query("DELETE FROM plants");
      await insertPlants(app.database, manyPlants(COUNT));
    });

    it("streams every plant, which csv-parse reads back to exactly the stored plants", async () => {
      const { status, headers, text } = await exportCsv("", { prefer: "count=exact" });
      expect(status).toBe(200);
      expect(headers.get("x-total-count")).toBe(String(COUNT));
      // CRLF only: no bare CR or LF once the record ends are taken out (names hold neither).
      expect(/[\r\n]/.test(text.replaceAll("\r\n", ""))).toBe(false);
      const stored = await storedPlants(app.database);
      expect(stored).toHaveLength(COUNT);
      expect(readBack(text)).toEqual(stored);
    });

    it("streams a filtered export exactly too", async () => {
      const stored = await storedPlants(app.database);
      const { text, headers } = await exportCsv(`?tag=${encodeURIComponent("a,b")}&q=${encodeURIComponent("É")}`, { prefer: "count=exact" });
      const expected = stored.filter((plant) => plant.tag === "a,b" && plant.name.toLowerCase().includes("é"));
      expect(expected.length).toBeGreaterThan(10);
      expect(readBack(text)).toEqual(expected);
      expect(headers.get("x-total-count")).toBe(String(expected.length));
    });

    it("resumes after the last id an interrupted export delivered", async () => {
      const stored = await storedPlants(app.database);
      const cut = stored[2_345]!.id;
      expect(readBack((await exportCsv(`?after=${cut}`)).text)).toEqual(stored.slice(2_346));
    });
  });
}

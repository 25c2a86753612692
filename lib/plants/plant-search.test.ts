import { describe, expect, it } from "vitest";
import { countPlants, listPlants, plantPages } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { insertPlants } from "@/test/support/insert-plants";

// Finding plants on a real database of the run's engine (this file runs on
// SQLite and on PostgreSQL): "contains, ignoring case" is one rule, the
// JavaScript one (lower both, then look for the needle), whichever engine
// answers, so the two agree on every text here.

const database = setUpTestDatabase();

const NAMES = [
  "Boston fern",
  "STAGHORN FERN",
  "École du jardin",
  "Äpfelbaum",
  "Straße der Rosen",
  "ΟΔΟΣ ΚΗΠΟΥ",
  "Ёлка зелёная",
  "İstanbul lalesi",
  "Ｆｕｌｌ ｗｉｄｔｈ",
  "100% cactus",
  "a_b palm",
  "Back\\slash ivy",
  "🌵 Kaktus",
];

const NEEDLES = ["fern", "FERN", "école", "ÉCOLE", "äpfel", "ÄPFEL", "straße", "STRASSE", "οδος", "ΟΔΟΣ", "ёлка", "ЁЛКА", "i̇stanbul", "ｆｕｌｌ", "ＦＵＬＬ", "%", "_", "\\", "🌵 k", "n f", "zzz"];

describe("finding plants by a text in the name", () => {
  it("agrees with JavaScript's lowercase on each engine, for every needle", async () => {
    await insertPlants(
      database,
      NAMES.map((name, index) => ({ id: BigInt(index + 1), name, tag: index % 2 === 0 ? "even" : null })),
    );
    for (const q of NEEDLES) {
      const expected = NAMES.flatMap((name, index) => (name.toLowerCase().includes(q.toLowerCase()) ? [BigInt(index + 1)] : []));
      const { plants } = await listPlants({ limit: 100, q });
      expect(plants.map((plant) => plant.id), q).toEqual(expected);
      expect(await countPlants({ q }), q).toBe(BigInt(expected.length));
    }
  });

  it("combines with the tag and the cursor", async () => {
    expect((await listPlants({ limit: 100, q: "FERN", tag: "even" })).plants).toEqual([{ id: 1n, name: "Boston fern", tag: "even" }]);
    expect((await listPlants({ limit: 100, q: "a", tag: "even", after: 10n })).plants.map((plant) => plant.id)).toEqual([11n, 13n]);
    expect(await countPlants({ tag: "even" })).toBe(7n);
    expect(await countPlants({})).toBe(BigInt(NAMES.length));
  });
});

describe("plantPages", () => {
  it("gives every match once, in id order, a page at a time, from the cursor on", async () => {
    const pages: bigint[][] = [];
    for await (const page of plantPages({ tag: "even" }, 3)) pages.push(page.map((plant) => plant.id));
    expect(pages).toEqual([[1n, 3n, 5n], [7n, 9n, 11n], [13n]]);
    const resumed: bigint[][] = [];
    for await (const page of plantPages({ after: 10n }, 3)) resumed.push(page.map((plant) => plant.id));
    expect(resumed).toEqual([[11n, 12n, 13n]]);
    for await (const page of plantPages({ q: "nothing like it" }, 3)) expect.unreachable(`no page, got ${page.length} plants`);
  });
});

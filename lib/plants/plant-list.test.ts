import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createPlant, findPlantRecord, findPlantsPage, type ListedPlant, listTagsInUse, updatePlant } from "@/lib/plants/plant-queries";
import type { PlantOrder } from "@/lib/plants/plant-search";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The staff list's reads on a real database of the run's engine (this file
// runs on SQLite and on PostgreSQL): each order is one rule, written here in
// JavaScript, that both engines must follow to the plant.

setUpTestDatabase();

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

// Names whose order differs between case-sensitive, locale and code point
// comparisons, and between UTF-16 code units and code points (the cactus is
// beyond U+FFFF, the full-width letters below it).
const PLANTS = [
  { id: 5n, name: "aloe", tag: "succulent" },
  { id: MAX, name: "Zebra plant", tag: "Tropical" },
  { id: 3n, name: "Äpfelbaum", tag: "tree" },
  { id: 9007199254740993n, name: "école du jardin", tag: "tropical" },
  { id: 7n, name: "Ecole", tag: "tropical" },
  { id: 8n, name: "ecole" },
  { id: 2n, name: "Boston fern", tag: "fern" },
  { id: -4n, name: "boston fern", tag: "fern" },
  { id: 11n, name: "🌵 Kaktus", tag: "succulent" },
  { id: 12n, name: "Ｆｕｌｌ ｗｉｄｔｈ" },
  { id: MIN, name: "ΩMEGA palm", tag: "palm" },
  { id: 14n, name: "100% cactus", tag: "succulent" },
];

/** Added a minute apart, in this order of ids, except two added in the same millisecond. */
const ADDED_ORDER = [14n, MIN, 2n, -4n, 12n, 5n, 3n, 9007199254740993n, 7n, 8n, MAX, 11n];
const SAME_MOMENT = [9007199254740993n, 7n];

function addedAt(id: bigint): Date {
  const index = SAME_MOMENT.includes(id) ? ADDED_ORDER.indexOf(SAME_MOMENT[0]!) : ADDED_ORDER.indexOf(id);
  return new Date(Date.UTC(2026, 10, 23, 9, index));
}

function compareCodePoints(a: string, b: string): number {
  const left = [...a].map((character) => character.codePointAt(0)!);
  const right = [...b].map((character) => character.codePointAt(0)!);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index]! - right[index]!;
  }
  return left.length - right.length;
}

const compareIds = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

const COMPARE: Record<PlantOrder["by"], (a: (typeof PLANTS)[number], b: (typeof PLANTS)[number]) => number> = {
  added: (a, b) => addedAt(a.id).getTime() - addedAt(b.id).getTime() || compareIds(a.id, b.id),
  id: (a, b) => compareIds(a.id, b.id),
  name: (a, b) => compareCodePoints(a.name.toLowerCase(), b.name.toLowerCase()) || compareCodePoints(a.name, b.name) || compareIds(a.id, b.id),
};

function expectedIds(order: PlantOrder, keep: (plant: (typeof PLANTS)[number]) => boolean = () => true): bigint[] {
  const sorted = PLANTS.filter(keep).sort(COMPARE[order.by]);
  return (order.descending ? sorted.reverse() : sorted).map((plant) => plant.id);
}

const ids = (plants: ListedPlant[]) => plants.map((plant) => plant.id);

async function everyPage(search: Omit<Parameters<typeof findPlantsPage>[0], "page">, pageSize: number): Promise<bigint[]> {
  const found: bigint[] = [];
  for (let page = 1; ; page++) {
    const result = await findPlantsPage({ ...search, page }, pageSize);
    found.push(...ids(result.plants));
    if (page >= result.pageCount) return found;
  }
}

describe("findPlantsPage", () => {
  it("orders by added, id or name, either way, alike on each engine", async () => {
    for (const plant of PLANTS) {
      await createPlant(plant, TEST_BY);
      // Set as Prisma writes a time on this engine, so the order is read from the very values the app stores.
      await db().plant.update({ where: { id: plant.id }, data: { createdAt: addedAt(plant.id) } });
    }
    for (const by of ["added", "id", "name"] as const) {
      for (const descending of [false, true]) {
        const order = { by, descending };
        const { plants, total, pageCount } = await findPlantsPage({ filter: {}, order, page: 1 }, 100);
        expect(ids(plants), `${by} ${descending ? "descending" : "ascending"}`).toEqual(expectedIds(order));
        expect({ total, pageCount }).toEqual({ total: PLANTS.length, pageCount: 1 });
      }
    }
  });

  it("gives each plant once across numbered pages, and counts the whole match", async () => {
    const order = { by: "name", descending: false } as const;
    expect(await everyPage({ filter: {}, order }, 5)).toEqual(expectedIds(order));
    const second = await findPlantsPage({ filter: {}, order, page: 2 }, 5);
    expect({ total: second.total, page: second.page, pageCount: second.pageCount }).toEqual({ total: 12, page: 2, pageCount: 3 });
    expect(ids(second.plants)).toEqual(expectedIds(order).slice(5, 10));
  });

  it("answers no plants past the last page, with the total still", async () => {
    const past = await findPlantsPage({ filter: {}, order: { by: "id", descending: false }, page: 4 }, 5);
    expect(past).toEqual({ plants: [], total: 12, page: 4, pageCount: 3 });
  });

  it("filters by tag (exactly) and name (ignoring case) as the API does, in the chosen order", async () => {
    const order = { by: "added", descending: true } as const;
    const tropical = await findPlantsPage({ filter: { tag: "tropical" }, order, page: 1 }, 100);
    expect(ids(tropical.plants)).toEqual(expectedIds(order, (plant) => plant.tag === "tropical"));
    expect(tropical.total).toBe(2);
    const fern = await everyPage({ filter: { q: "FERN" }, order: { by: "id", descending: true } }, 1);
    expect(fern).toEqual([2n, -4n]);
    const both = await findPlantsPage({ filter: { q: "COLE", tag: "tropical" }, order: { by: "name", descending: false }, page: 1 });
    expect(ids(both.plants)).toEqual([7n, 9007199254740993n]);
    expect(await findPlantsPage({ filter: { q: "nothing like it" }, order, page: 1 })).toEqual({ plants: [], total: 0, page: 1, pageCount: 1 });
  });

  it("gives each plant's name, tag and when it was added", async () => {
    const { plants } = await findPlantsPage({ filter: { q: "zebra" }, order: { by: "id", descending: false }, page: 1 });
    expect(plants).toEqual([{ id: MAX, name: "Zebra plant", tag: "Tropical", createdAt: addedAt(MAX) }]);
    const [untagged] = (await findPlantsPage({ filter: { q: "ｆｕｌｌ" }, order: { by: "id", descending: false }, page: 1 })).plants;
    expect(untagged).toEqual({ id: 12n, name: "Ｆｕｌｌ ｗｉｄｔｈ", createdAt: addedAt(12n) });
  });
});

describe("listTagsInUse", () => {
  it("gives each tag once, ignoring case in their order, up to the limit", async () => {
    expect(await listTagsInUse()).toEqual(["fern", "palm", "succulent", "tree", "Tropical", "tropical"]);
    expect(await listTagsInUse(2)).toEqual(["fern", "palm"]);
  });
});

describe("findPlantRecord", () => {
  it("gives the version and when the plant was added and last changed", async () => {
    const { plant, version, createdAt } = await createPlant({ id: 9007199254740995n, name: "Calathea", tag: "prayer" }, TEST_BY);
    expect(await findPlantRecord(9007199254740995n)).toEqual({ plant, version, createdAt, updatedAt: null });
    const before = Date.now();
    const changed = await updatePlant(9007199254740995n, TEST_BY, (stored) => ({ id: stored.id, name: "Calathea orbifolia" }));
    const record = await findPlantRecord(9007199254740995n);
    expect(record).toEqual({ ...changed, updatedAt: expect.any(Date) });
    expect(record!.updatedAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(await findPlantRecord(9007199254740997n)).toBeUndefined();
  });
});

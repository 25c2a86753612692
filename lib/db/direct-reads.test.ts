import { expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { listPlants, getPlant } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// The API's hot reads run on the driver, not through Prisma
// (lib/db/direct-reads.ts), and SQLite's reader keeps answers while the
// database is unchanged. On a real database of the run's engine: they read
// what Prisma's model queries read, and every commit, by this process or by
// another connection, is seen by the very next read.

const database = setUpTestDatabase();

it("reads what the model queries read: ids at the int64 edges, names and tags exactly, absent tags as absent", async () => {
  const plants = [
    { id: -9223372036854775808n, name: "Lowest", tag: null },
    { id: 0n, name: "Zero ✿", tag: "t" },
    { id: 9007199254740993n, name: "Past 2^53", tag: null },
    { id: 9223372036854775807n, name: "Highest", tag: "edge" },
  ];
  for (const plant of plants) await db().plant.create({ data: plant });
  const modelRows = await db().plant.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, tag: true } });
  const expected = modelRows.map((row) => (row.tag === null ? { id: row.id, name: row.name } : row));
  expect((await listPlants({ limit: 10 })).plants).toEqual(expected);
  expect(await listPlants({ limit: 2, after: 0n })).toEqual({ plants: expected.slice(2, 4) });
  expect(await listPlants({ limit: 1 })).toEqual({ plants: expected.slice(0, 1), nextAfter: -9223372036854775808n });
  for (const plant of expected) expect(await getPlant(plant.id)).toEqual(plant);
});

it("sees each commit on its very next read, whichever connection made it, and answers alike while nothing changed", async () => {
  // Plants 1001 and up; the first test's stay below and far above.
  const page = async () => (await listPlants({ limit: 100, after: 1_000n })).plants.filter((plant) => plant.id < 2_000n).map((plant) => plant.name);
  expect(await page()).toEqual([]);
  // Through the app's own Prisma client.
  await db().plant.create({ data: { id: 1_001n, name: "By the app" } });
  expect(await page()).toEqual(["By the app"]);
  expect(await page()).toEqual(["By the app"]);
  // Through another connection, as the CLIs or another instance write.
  await database.exec(`INSERT INTO plants (id, name, created_at) VALUES (1002, 'By another connection', '2026-11-23T00:00:00.000+00:00')`);
  expect(await page()).toEqual(["By the app", "By another connection"]);
  await database.exec(`UPDATE plants SET name = 'Renamed elsewhere' WHERE id = 1001`);
  expect(await getPlant(1_001n)).toEqual({ id: 1_001n, name: "Renamed elsewhere" });
  await db().plant.delete({ where: { id: 1_002n } });
  expect(await page()).toEqual(["Renamed elsewhere"]);
});

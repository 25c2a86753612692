import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createPlant, createPlants, deletePlant, getPlant, listPlants, updatePlant } from "@/lib/plants/plant-queries";
import { env } from "@/lib/server/env";
import { metrics } from "@/lib/server/metrics";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { storedPlants } from "@/test/support/test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// SQLite's write lock, as plant writes hold it (issue 33): only to write and
// sync, BEGIN IMMEDIATE, the statements and COMMIT in one turn of the event
// loop. Another connection (as another worker's or a CLI's would be) finds
// the lock free at every turn, a write waits, without blocking, while
// another holds it, and reads never wait for it.

const database = setUpTestDatabase();
let other: Database.Database | undefined;
afterAll(() => other?.close());

function otherConnection(): Database.Database {
  const config = env().database;
  if (config.provider !== "sqlite") throw new Error("a SQLite test");
  // A busy timeout of 0: BUSY at once, rather than a wait that would hide a lock held across turns.
  other ??= new Database(config.path, { timeout: 0 });
  return other;
}

const ferns = (from: bigint, count: number) => Array.from({ length: count }, (_, n) => ({ id: from + BigInt(n), name: `Fern ${n}` }));

it("never holds the write lock from one turn of the event loop to the next while it stores, changes and deletes plants", async () => {
  const probe = otherConnection();
  let turns = 0;
  const busy: string[] = [];
  let storing = true;
  const watching = (async () => {
    while (storing) {
      try {
        probe.exec("BEGIN IMMEDIATE");
        probe.exec("ROLLBACK");
      } catch (error) {
        busy.push((error as { code?: string }).code ?? String(error));
      }
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  await createPlants(ferns(3_000n, 100), TEST_BY);
  // In waves, each of singles, a batch, changes and deletes at once: a wave is stored in as few group commits
  // as the writer likes (one, when the code runs hot), but the next wave starts a turn later, so the probe has
  // its turns while the plants are being stored, however fast the machine stores them.
  const WAVES = 5;
  const turnsBefore = turns;
  for (let wave = 0; wave < WAVES; wave++) {
    const singles = ferns(1_000n + BigInt(wave * 60), 60).map((plant) => createPlant(plant, TEST_BY));
    const batch = createPlants(ferns(2_000n + BigInt(wave * 100), 100), TEST_BY);
    const changes = ferns(3_000n + BigInt(wave * 10), 10).map((plant) => updatePlant(plant.id, TEST_BY, (stored) => ({ ...stored, name: "Renamed" })));
    const deletes = ferns(3_050n + BigInt(wave * 10), 10).map((plant) => deletePlant(plant.id, TEST_BY));
    await Promise.all([...singles, batch, ...changes, ...deletes]);
  }
  storing = false;
  await watching;
  expect(busy).toEqual([]);
  expect(turns - turnsBefore).toBeGreaterThanOrEqual(WAVES);
  const stored = await storedPlants(database);
  expect(stored.filter((plant) => plant.id >= 1_000n && plant.id < 3_000n)).toHaveLength(800);
  expect(stored.filter((plant) => plant.id >= 3_000n).map((plant) => plant.name)).toEqual(Array.from({ length: 50 }, () => "Renamed"));
});

it("waits while another connection holds the write lock, then stores the plant", async () => {
  const holder = otherConnection();
  holder.exec("BEGIN IMMEDIATE");
  let released = false;
  const created = createPlant({ id: 5_000n, name: "Patient fern" }, TEST_BY).then((plant) => ({ plant, released }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  released = true;
  holder.exec("COMMIT");
  const { plant, released: afterRelease } = await created;
  expect(plant.status).toBe("stored");
  expect(afterRelease).toBe(true);
});

it("reads while another connection holds the write lock: no read begins a transaction", async () => {
  const holder = otherConnection();
  holder.exec("BEGIN IMMEDIATE");
  try {
    // Were any of these to take the lock, it would wait for the holder, and give up with SQLITE_BUSY after 5 s.
    expect(await getPlant(5_000n)).toEqual({ id: 5_000n, name: "Patient fern" });
    expect((await listPlants({ limit: 5 })).plants).toHaveLength(5);
    expect(await db().user.findMany({ include: { passkeys: true, tokens: true } })).toEqual([]);
    expect(await db().plant.count()).toBeGreaterThan(800);
  } finally {
    holder.exec("ROLLBACK");
  }
});

it("counts the lock held and the COMMIT of each plant write, a change and a delete as well as new plants", async () => {
  const counted = async () => {
    const values = [...(await metrics().sqliteWriteLockHeld.get()).values, ...(await metrics().sqliteCommit.get()).values];
    const value = (name: string) => values.find((each) => each.metricName === name)?.value ?? 0;
    return { held: value("plant_store_sqlite_write_lock_held_seconds_count"), commits: value("plant_store_sqlite_commit_seconds_count") };
  };
  const before = await counted();
  await createPlant({ id: 6_000n, name: "Counted fern" }, TEST_BY);
  await updatePlant(6_000n, TEST_BY, (stored) => ({ ...stored, name: "Counted twice" }));
  await deletePlant(6_000n, TEST_BY);
  expect(await counted()).toEqual({ held: before.held + 3, commits: before.commits + 3 });
});

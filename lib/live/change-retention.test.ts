import { beforeEach, expect, it } from "vitest";
import { pruneChanges } from "@/lib/live/change-retention";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Keeping the change feed (issue 32) on a real database of the run's engine:
// changes older than CHANGE_FEED_RETENTION go, the newest stays whatever its
// age (the next position is counted from it), and on PostgreSQL changes no
// instance stamped yet are stamped first, so that they can go too.

const database = setUpTestDatabase();

const DAY = 86_400_000;
const NOW = new Date("2026-11-29T12:00:00Z");

beforeEach(async () => {
  await database.query(`DELETE FROM "plants"`);
  await database.query(`DELETE FROM "plant_changes"`);
});

/** Stores plants, their changes (by the triggers) dated `daysAgo` days before NOW. */
async function changesAt(daysAgo: number, ids: number[]): Promise<void> {
  for (const id of ids) await database.query(`INSERT INTO "plants" ("id", "name", "created_at") VALUES ($1, 'Fern', $2)`, [id, NOW.toISOString()]);
  const at = new Date(NOW.getTime() - daysAgo * DAY).toISOString();
  // As each engine keeps the trigger's time: SQLite's text with +00:00, PostgreSQL's timestamp.
  const written = database.provider === "sqlite" ? at.replace("Z", "+00:00") : at;
  await database.query(`UPDATE "plant_changes" SET "occurred_at" = $1 WHERE "plant_id" IN (${ids.join(", ")})`, [written]);
}

const kept = async () => (await database.query<{ plant_id: unknown }>(`SELECT "plant_id" FROM "plant_changes" ORDER BY "seq"`)).map((row) => Number(row.plant_id));

it("removes the changes older than the retention, and keeps the newest however old", async () => {
  await changesAt(10, [1, 2, 3]);
  await changesAt(1, [4]);
  expect(await pruneChanges(7 * DAY, { now: NOW })).toBe(3);
  expect(await kept()).toEqual([4]);
  // All of them old: the newest stays.
  await changesAt(30, [5, 6]);
  await database.query(`UPDATE "plant_changes" SET "occurred_at" = (SELECT "occurred_at" FROM "plant_changes" WHERE "plant_id" = 5)`);
  expect(await pruneChanges(7 * DAY, { now: NOW })).toBe(2);
  expect(await kept()).toEqual([6]);
  if (database.provider === "postgresql") {
    const [row] = await database.query<{ position: unknown }>(`SELECT "position" FROM "plant_changes"`);
    // Stamped by the run itself, positions 1 to 6 in the order written.
    expect(Number(row!.position)).toBe(6);
  }
});

import { afterAll, describe, expect, it } from "vitest";
import { copyDatabase } from "@/lib/db/copy/copy-database";
import { type DatabaseProvider, describeDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/db/migrate";
import { makeTestDatabase, stampPlantChanges, type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";

// The change feed through `db copy` (issues 23 and 32), in the test's own
// process: an API client following GET /plants/events resumes on the target
// where it was on the source. As cli/db-copy.test.ts, the SQLite project
// copies SQLite to SQLite; the PostgreSQL project, every way PostgreSQL takes
// part. The feeds are compared by the test's own reads.

const made: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(made.map((database) => database.drop()));
});

async function fresh(provider: DatabaseProvider): Promise<TestDatabase> {
  // PostgreSQL's comes migrated (a copy of the run's template); SQLite's file migrates in a fifth of a second.
  const database = await makeTestDatabase(provider, { migrated: true });
  made.push(database);
  await migrate(database.config);
  return database;
}

const PAIRS: [DatabaseProvider, DatabaseProvider][] =
  testDatabaseProvider() === "sqlite"
    ? [["sqlite", "sqlite"]]
    : [
        ["sqlite", "postgresql"],
        ["postgresql", "sqlite"],
        ["postgresql", "postgresql"],
      ];

const copy = (source: TestDatabase, target: TestDatabase) => copyDatabase(source.config, { config: target.config, url: target.url });

const [PAST_2_53, HIGHEST, LOWEST] = [9_007_199_254_740_993n, 9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n];

/** Positions 1 to 5: three plants created, one of them updated (its name and tag), one deleted. */
async function changePlants(database: TestDatabase): Promise<void> {
  await database.query("INSERT INTO plants (id, name, tag) VALUES ($1, 'Fern', NULL), ($2, 'Ivy', 'climbers'), ($3, 'Moss', 'shade')", [PAST_2_53, HIGHEST, LOWEST]);
  await database.query("UPDATE plants SET name = 'Ivy, repotted', tag = 'indoor' WHERE id = $1", [HIGHEST]);
  await database.query("DELETE FROM plants WHERE id = $1", [LOWEST]);
}

type Change = { seq: string; position: string | null; type: string; plant_id: string; tag: string | null; previous_tag: string | null; data: string; occurred_at: number };

/** The feed, every column of every change, in the order they were written; integers as decimals, the time as Unix ms. */
async function feedOf(database: TestDatabase): Promise<Change[]> {
  const time = database.provider === "sqlite" ? `"occurred_at"` : `to_char("occurred_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurred_at"`;
  const rows = await database.query<Record<keyof Change, unknown>>(
    `SELECT "seq", "position", "type", "plant_id", "tag", "previous_tag", "data", ${time} FROM "plant_changes" ORDER BY "seq"`,
  );
  return rows.map((row) => ({
    seq: String(row.seq),
    position: row.position === null ? null : String(row.position),
    type: row.type as string,
    plant_id: String(row.plant_id),
    tag: row.tag as string | null,
    previous_tag: row.previous_tag as string | null,
    data: row.data as string,
    occurred_at: Date.parse(row.occurred_at as string),
  }));
}

describe.each(PAIRS)("db copy from %s to %s", (from, to) => {
  it("carries the change feed, positions and all, and the target's next change takes the position after the source's newest", async () => {
    const source = await fresh(from);
    await changePlants(source);
    await stampPlantChanges(source);
    // The oldest gone, as the feed's retention removes them: positions are carried as they are, never renumbered.
    await source.query(`DELETE FROM "plant_changes" WHERE "position" = 1`);
    const feed = await feedOf(source);
    expect(feed.map((change) => [change.position, change.type, change.plant_id])).toEqual([
      ["2", "plant.created", String(HIGHEST)],
      ["3", "plant.created", String(LOWEST)],
      ["4", "plant.updated", String(HIGHEST)],
      ["5", "plant.deleted", String(LOWEST)],
    ]);
    const target = await fresh(to);

    const result = await copy(source, target);

    // Not the changes the target's triggers wrote as the plants were copied, but the source's.
    expect(await feedOf(target)).toEqual(feed);
    expect(result.tables.find((report) => report.table === "plant_changes")).toMatchObject({ sourceRows: 4, targetRows: 4, matches: true });
    expect(result.generatedIds).toContainEqual({ table: "plant_changes", column: "seq", next: 6n });

    await target.query("INSERT INTO plants (id, name) VALUES ($1, 'Palm')", [PAST_2_53 + 2n]);
    await stampPlantChanges(target);
    expect((await feedOf(target)).at(-1)).toMatchObject({ seq: "6", position: "6", type: "plant.created", plant_id: String(PAST_2_53 + 2n) });
  });
});

/** A PostgreSQL source whose changes keep no position: a trigger added by hand holds back every stamp, as an app still writing leaves its last changes for an instant. */
async function sourceHoldingStamps(): Promise<TestDatabase> {
  const source = await fresh("postgresql");
  await changePlants(source);
  await source.exec(
    `CREATE FUNCTION hold_stamps() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
     CREATE TRIGGER hold_stamps BEFORE UPDATE ON plant_changes FOR EACH ROW EXECUTE FUNCTION hold_stamps()`,
  );
  expect((await feedOf(source)).map((change) => change.position)).toEqual([null, null, null, null, null]);
  return source;
}

for (const [, to] of PAIRS.filter(([from]) => from === "postgresql")) {
  describe(`db copy from postgresql to ${to}, with changes committed and not yet given their positions`, () => {
    it("gives them their positions first, as the source's own app would, then copies them with those", async () => {
      const source = await fresh("postgresql");
      await changePlants(source);
      await stampPlantChanges(source);
      // Committed after the app's last stamp: it stopped before giving this change its position.
      await source.query("INSERT INTO plants (id, name) VALUES ($1, 'Unstamped')", [PAST_2_53 + 1n]);
      expect((await feedOf(source)).at(-1)).toMatchObject({ seq: "6", position: null });
      const target = await fresh(to);

      await copy(source, target);

      const feed = await feedOf(source);
      expect(feed.map((change) => change.position)).toEqual(["1", "2", "3", "4", "5", "6"]);
      expect(feed.at(-1)).toMatchObject({ seq: "6", type: "plant.created", plant_id: String(PAST_2_53 + 1n) });
      expect(await feedOf(target)).toEqual(feed);
    });

    it.runIf(to === "sqlite")("refuses changes its app committed as the copy began, after the copy's stamp: SQLite would never stamp them", async () => {
      const source = await sourceHoldingStamps();
      const target = await fresh(to);
      await expect(copy(source, target)).rejects.toMatchObject({
        name: "CopyRefusedError",
        message:
          `the source ${describeDatabase(source.config)} holds 5 changes to plants committed as the copy began, still without a position in the change feed, ` +
          "which a SQLite target would never give: the app is still writing to it. Stop it, then copy again",
      });
      expect(await target.query("SELECT 1 FROM plants")).toEqual([]);
    });

    it.runIf(to === "postgresql")("copies changes its app committed as the copy began, after the copy's stamp, for the target's instances to stamp", async () => {
      const source = await sourceHoldingStamps();
      const feed = await feedOf(source);
      const target = await fresh(to);
      await copy(source, target);
      expect(await feedOf(target)).toEqual(feed);
      await stampPlantChanges(target);
      expect((await feedOf(target)).map((change) => change.position)).toEqual(["1", "2", "3", "4", "5"]);
    });
  });
}

import { describe, expect, it } from "vitest";
import { type Attribution, personActor, tokenActor } from "@/lib/activity/actor";
import {
  activityExportHref,
  activityHref,
  activityPages,
  type ActivitySearch,
  matchesActivitySearch,
  readActivitySearch,
  searchActivity,
  timeBound,
} from "@/lib/activity/activity-search";
import { recordActivity } from "@/lib/activity/record";
import { db } from "@/lib/db/client";
import { activityAfter } from "@/lib/live/activity-reads";
import { createPlant, deletePlant, updatePlant } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Finding activity records (issue 22) on a real database of the run's engine:
// the filters the owners' page, its CSV and the CLI share, read from a URL's
// words, and the query newest first, paged before a record's id.

const database = setUpTestDatabase();

const ANA: Attribution = { actor: personActor({ id: "user-ana", name: "Ana Lopez" }), origin: null };
const BEN: Attribution = { actor: personActor({ id: "user-ben", name: "Ben Okafor" }), origin: null };
const ANAS_TOKEN: Attribution = { actor: tokenActor({ id: "token-till", label: "till sync", ownerId: "user-ana" }), origin: null };

const search = (params: Record<string, unknown>): ActivitySearch => {
  const { search: found, errors } = readActivitySearch(params);
  expect(errors).toEqual({});
  return found;
};
const actions = async (params: Record<string, unknown>) => (await searchActivity(search(params), 100)).entries.map((entry) => `${entry.action} ${entry.subjectId}`);

describe("readActivitySearch", () => {
  it("reads each filter from its URL text, and takes an empty field for no filter", () => {
    expect(readActivitySearch({})).toEqual({ search: {}, errors: {} });
    expect(readActivitySearch({ person: "", action: "", plant: "", from: "", to: "", before: "" })).toEqual({ search: {}, errors: {} });
    expect(readActivitySearch({ person: "user-ana", action: "plant.*", plant: "9007199254740993", from: "2026-11-01", to: "2026-11-30", before: "812", page: "x" })).toEqual({
      search: {
        person: "user-ana",
        action: "plant.*",
        plant: 9007199254740993n,
        from: { text: "2026-11-01", at: new Date("2026-11-01T00:00:00Z") },
        to: { text: "2026-11-30", at: new Date("2026-12-01T00:00:00Z") },
        before: 812n,
      },
      errors: {},
    });
  });

  it("takes a day in UTC whole, and a date and time with its offset to the millisecond (to includes it)", () => {
    expect(timeBound("2028-02-29", false)).toEqual(new Date("2028-02-29T00:00:00Z"));
    expect(timeBound("2026-12-31", true)).toEqual(new Date("2027-01-01T00:00:00Z"));
    expect(timeBound("2026-11-23T14:05:00Z", false)).toEqual(new Date("2026-11-23T14:05:00Z"));
    expect(timeBound("2026-11-23T14:05+01:00", false)).toEqual(new Date("2026-11-23T13:05:00Z"));
    expect(timeBound("2026-11-23T14:05:00.250Z", true)).toEqual(new Date("2026-11-23T14:05:00.251Z"));
    for (const text of ["2026-02-29", "2026-13-01", "2026-11-23T24:00Z", "2026-11-23T14:05", "23/11/2026", "yesterday", "2026-11-23 14:05Z"]) {
      expect(timeBound(text, false), text).toBeUndefined();
    }
  });

  it("answers each mistaken filter with a sentence naming it, and leaves it out of the search", () => {
    const { search: kept, errors } = readActivitySearch({ person: "user-ana", action: "plant.eaten", plant: "007", from: "last week", before: "0" });
    expect(kept).toEqual({ person: "user-ana" });
    expect(errors).toEqual({
      action: expect.stringMatching(/^action must be a kind of change or a family of them: plant\.created, .*, plant\.\*, token\.\*/),
      plant: "plant must be a plant's id: an integer from -9223372036854775808 to 9223372036854775807",
      from: "from must be a date (2026-11-23, a day in UTC) or a date and time with its offset (2026-11-23T14:05:00Z)",
      before: "before must be a record's id: an integer from 1 to 9223372036854775807",
    });
    expect(readActivitySearch({ plant: "9223372036854775808" }).errors.plant).toMatch(/^plant must be/);
    expect(readActivitySearch({ person: ["a", "b"] }).errors).toEqual({ person: "person must be given once" });
    expect(readActivitySearch({ person: "x".repeat(101) }).errors.person).toMatch(/^person must be an account's id/);
    expect(readActivitySearch({ from: "2026-11-02", to: "2026-11-01" })).toEqual({
      search: { from: { text: "2026-11-02", at: new Date("2026-11-02T00:00:00Z") } },
      errors: { to: "to must not be before from" },
    });
    // One day is a range: from its start to its end.
    expect(readActivitySearch({ from: "2026-11-01", to: "2026-11-01" }).errors).toEqual({});
  });

  it("writes each search as one URL, read back to the same search; the CSV's has no page", () => {
    expect(activityHref({})).toBe("/activity");
    const params = { person: "user-ana", action: "plant.*", plant: "-9223372036854775808", from: "2026-11-23T14:05+01:00", to: "2026-11-30", before: "812" };
    const found = search(params);
    const href = activityHref(found);
    expect(href).toBe("/activity?person=user-ana&action=plant.*&plant=-9223372036854775808&from=2026-11-23T14%3A05%2B01%3A00&to=2026-11-30&before=812");
    expect(search(Object.fromEntries(new URL(href, "http://x").searchParams))).toEqual(found);
    expect(activityExportHref(found)).toBe("/activity.csv?person=user-ana&action=plant.*&plant=-9223372036854775808&from=2026-11-23T14%3A05%2B01%3A00&to=2026-11-30");
  });
});

describe("searchActivity", () => {
  it("filters by person (their tokens' changes included), kind or family of change, and plant, newest first", async () => {
    await createPlant({ id: 101n, name: "Fern" }, ANA);
    await createPlant({ id: 102n, name: "Ivy" }, ANAS_TOKEN);
    await updatePlant(101n, BEN, () => ({ id: 101n, name: "Boston fern" }));
    await deletePlant(102n, BEN);

    const scope = { from: "2000-01-01" };
    expect(await actions({ ...scope, person: "user-ana" })).toEqual(["plant.created 102", "plant.created 101"]);
    expect(await actions({ ...scope, person: "user-ben" })).toEqual(["plant.deleted 102", "plant.updated 101"]);
    expect(await actions({ ...scope, person: "user-nobody" })).toEqual([]);
    expect(await actions({ ...scope, plant: "101" })).toEqual(["plant.updated 101", "plant.created 101"]);
    expect(await actions({ ...scope, plant: "102", action: "plant.deleted" })).toEqual(["plant.deleted 102"]);
    expect(await actions({ ...scope, person: "user-ana", action: "plant.*" })).toEqual(["plant.created 102", "plant.created 101"]);
    expect(await actions({ ...scope, plant: "101", action: "token.*" })).toEqual([]);
  });

  it("takes in memory, for the pages following the record, exactly the records its query finds", async () => {
    await createPlant({ id: 9007199254740995n, name: "Fern" }, ANA);
    await createPlant({ id: 9007199254740997n, name: "Ivy" }, ANAS_TOKEN);
    await updatePlant(9007199254740995n, BEN, () => ({ id: 9007199254740995n, name: "Boston fern" }));
    await db().$transaction((tx) => recordActivity(tx, [{ action: "webhook.created", subjectKind: "webhook", subjectId: "w-1", changes: {}, by: ANA }], new Date("2026-10-15T00:00:00.000Z")));
    const recorded = await activityAfter(0n, 100);
    const searches = [
      { person: "user-ana" },
      { person: "user-ben", action: "plant.*" },
      { plant: "9007199254740995" },
      { plant: "9007199254740997", action: "plant.created" },
      { action: "webhook.created" },
      { from: "2026-10-15", to: "2026-10-15T00:00:00.000Z" },
      { from: "2026-10-16" },
      {},
    ];
    for (const params of searches) {
      const found = (await searchActivity(search(params), 100)).entries.map((entry) => entry.id).toReversed();
      expect(recorded.filter((note) => matchesActivitySearch(note, search(params))).map((note) => note.position), JSON.stringify(params)).toEqual(found);
    }
  });

  it("finds a plant by its exact id above 2^53, never a neighbour that a rounded number would be", async () => {
    const ids = [9007199254740992n, 9007199254740993n, 9223372036854775807n, -9223372036854775808n];
    for (const id of ids) await createPlant({ id, name: `Exact ${id}` }, ANA);
    for (const id of ids) {
      const { entries } = await searchActivity(search({ plant: String(id) }));
      expect(entries.map((entry) => entry.changes.after?.id)).toEqual([id]);
      expect(typeof entries[0]!.changes.after?.id).toBe("bigint");
    }
  });

  it("keeps a time range: from its start, up to its end", async () => {
    const at = (iso: string) => new Date(iso);
    await db().$transaction(async (tx) => {
      await recordActivity(tx, [{ action: "token.created", subjectKind: "token", subjectId: "t-oct", changes: {}, by: ANA }], at("2026-10-31T23:59:59.999Z"));
      await recordActivity(tx, [{ action: "token.created", subjectKind: "token", subjectId: "t-nov-1", changes: {}, by: ANA }], at("2026-11-01T00:00:00.000Z"));
      await recordActivity(tx, [{ action: "token.created", subjectKind: "token", subjectId: "t-nov-30", changes: {}, by: ANA }], at("2026-11-30T23:59:59.999Z"));
      await recordActivity(tx, [{ action: "token.created", subjectKind: "token", subjectId: "t-dec", changes: {}, by: ANA }], at("2026-12-01T00:00:00.000Z"));
    });
    const tokens = { action: "token.created" };
    expect(await actions({ ...tokens, from: "2026-11-01", to: "2026-11-30" })).toEqual(["token.created t-nov-30", "token.created t-nov-1"]);
    expect(await actions({ ...tokens, from: "2026-11-30T23:59:59.999Z" })).toEqual(["token.created t-dec", "token.created t-nov-30"]);
    expect(await actions({ ...tokens, to: "2026-11-01T00:00Z" })).toEqual(["token.created t-nov-1", "token.created t-oct"]);
    expect(await actions({ ...tokens, from: "2026-11-01T01:00+01:00", to: "2026-11-01T00:00:00.000Z" })).toEqual(["token.created t-nov-1"]);
  });

  it("pages newest first before the oldest record seen, each record once, and reads every page for an export", async () => {
    await createPlant({ id: 300n, name: "v0" }, BEN);
    for (let n = 1; n <= 4; n++) await updatePlant(300n, BEN, () => ({ id: 300n, name: `v${n}` }));
    const names = (page: { entries: { changes: { after?: Record<string, unknown> } }[] }) => page.entries.map((entry) => entry.changes.after?.name);
    const first = await searchActivity(search({ plant: "300" }), 2);
    expect(names(first)).toEqual(["v4", "v3"]);
    const second = await searchActivity(search({ plant: "300", before: String(first.next) }), 2);
    expect(names(second)).toEqual(["v2", "v1"]);
    const last = await searchActivity(search({ plant: "300", before: String(second.next) }), 2);
    expect(names(last)).toEqual(["v0"]);
    expect(last.next).toBeNull();

    const pages = [];
    for await (const entries of activityPages(search({ plant: "300" }), 2)) pages.push(entries.map((entry) => entry.changes.after?.name));
    expect(pages).toEqual([["v4", "v3"], ["v2", "v1"], ["v0"]]);
  });

  it("answers every record newest first without a filter", async () => {
    const { entries } = await searchActivity({}, 1000);
    const [count] = await database.query<{ n: unknown }>("SELECT count(*) AS n FROM activity");
    expect(entries).toHaveLength(Number(count!.n));
    expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort((a, b) => (a > b ? -1 : 1)));
  });
});

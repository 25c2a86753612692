import { beforeEach, describe, expect, it } from "vitest";
import { APP_ACTOR } from "@/lib/activity/actor";
import { type ActivityAction, type ActivityRecord, recordActivity } from "@/lib/activity/record";
import { oldSignInsStep, pruneActivity, type RetentionPolicy, startActivityRetention } from "@/lib/activity/retention";
import { db, Prisma } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Keeping the activity record (issue 22) on a real database of the run's
// engine: records past ACTIVITY_RETENTION go and recent ones stay, sign-ins go
// by their own shorter period, forever removes nothing, and the removal runs
// in steps of bounded size, each committed by itself.

const database = setUpTestDatabase();

const DAY = 86_400_000;
const NOW = new Date("2026-11-27T12:00:00Z");
const DEFAULTS: RetentionPolicy = { recordsMs: 400 * DAY, signInsMs: 90 * DAY };
const FAST = { now: NOW, pauseMs: 0 };

let subject = 0;

/** Records `count` changes `daysAgo` days before `base`, written now (their ids count up in the order of the calls). */
async function recordAt(daysAgo: number, action: ActivityAction = "plant.updated", count = 1, base = NOW): Promise<void> {
  const subjectKind = action.startsWith("sign_in") ? "account" : "plant";
  const records = Array.from({ length: count }, (): ActivityRecord => ({ action, subjectKind, subjectId: String(++subject), changes: {}, by: { actor: APP_ACTOR, origin: null } }));
  await db().$transaction((tx) => recordActivity(tx, records, new Date(base.getTime() - daysAgo * DAY)));
}

/** What is left: each record's action and age in days, oldest first. */
async function left(): Promise<string[]> {
  const rows = await db().activity.findMany({ orderBy: { id: "asc" }, select: { action: true, occurredAt: true } });
  return rows.map((row) => `${row.action} ${Math.round((NOW.getTime() - row.occurredAt.getTime()) / DAY)}d`);
}

const count = async () => Number((await database.query<{ n: unknown }>("SELECT count(*) AS n FROM activity"))[0]!.n);

beforeEach(async () => {
  await db().activity.deleteMany();
});

describe("pruneActivity", () => {
  it("removes the records older than the retention and keeps the recent ones", async () => {
    await recordAt(800, "plant.created", 3);
    await recordAt(401, "token.created", 2);
    await recordAt(399, "plant.deleted");
    await recordAt(1, "webhook.changed");
    expect(await pruneActivity(DEFAULTS, FAST)).toEqual({ records: 5, signIns: 0 });
    expect(await left()).toEqual(["plant.deleted 399d", "webhook.changed 1d"]);
    // Again: nothing more to remove.
    expect(await pruneActivity(DEFAULTS, FAST)).toEqual({ records: 0, signIns: 0 });
  });

  it("removes sign-ins by their own shorter period, and keeps the other records of that age", async () => {
    await recordAt(500, "sign_in.failed");
    await recordAt(120, "sign_in.succeeded", 2);
    await recordAt(120, "plant.updated");
    await recordAt(91, "sign_in.failed");
    await recordAt(89, "sign_in.succeeded");
    await recordAt(10, "account.joined");
    expect(await pruneActivity(DEFAULTS, FAST)).toEqual({ records: 1, signIns: 3 });
    expect(await left()).toEqual(["plant.updated 120d", "sign_in.succeeded 89d", "account.joined 10d"]);
  });

  it("removes nothing when records are kept forever, and only old sign-ins when those are not", async () => {
    await recordAt(5_000, "plant.created");
    await recordAt(5_000, "sign_in.succeeded");
    await recordAt(100, "sign_in.failed");
    expect(await pruneActivity({ recordsMs: null, signInsMs: null }, FAST)).toEqual({ records: 0, signIns: 0 });
    expect(await count()).toBe(3);
    expect(await pruneActivity({ recordsMs: null, signInsMs: 90 * DAY }, FAST)).toEqual({ records: 0, signIns: 2 });
    expect(await left()).toEqual(["plant.created 5000d"]);
  });

  it("removes in steps of at most stepRows records, each committed before the next", async () => {
    await recordAt(450, "plant.created", 11);
    await recordAt(100, "sign_in.failed", 7);
    await recordAt(3, "plant.updated", 4);
    const steps: { removed: number; left: number }[] = [];
    // The count is read on a connection of its own: what it sees is committed.
    const pruned = await pruneActivity(DEFAULTS, { ...FAST, stepRows: 3, onStep: async (removed) => void steps.push({ removed, left: await count() }) });
    expect(pruned).toEqual({ records: 11, signIns: 7 });
    expect(steps.map((step) => step.removed)).toEqual([3, 3, 3, 2, 0, 3, 3, 1, 0]);
    expect(steps.map((step) => step.left)).toEqual([19, 16, 13, 11, 11, 8, 5, 4, 4]);
  });

  it("removes the old records behind a newer one out of order at the oldest ids", async () => {
    // A record written before the old ones, with a later time (a clock that stepped back).
    await recordAt(2, "plant.updated");
    await recordAt(450, "plant.created", 7);
    expect(await pruneActivity(DEFAULTS, { ...FAST, stepRows: 3 })).toEqual({ records: 7, signIns: 0 });
    expect(await left()).toEqual(["plant.updated 2d"]);
  });

  it("removes each record once when two runs prune at the same time (two instances)", async () => {
    await recordAt(450, "plant.created", 40);
    await recordAt(100, "sign_in.failed", 30);
    await recordAt(3, "plant.updated", 5);
    const runs = await Promise.all([pruneActivity(DEFAULTS, { ...FAST, stepRows: 4 }), pruneActivity(DEFAULTS, { ...FAST, stepRows: 4 })]);
    expect(runs.reduce((sum, run) => sum + run.records, 0)).toBe(40);
    expect(runs.reduce((sum, run) => sum + run.signIns, 0)).toBe(30);
    expect(await count()).toBe(5);
  });

  it("stops after the step under way when its signal aborts", async () => {
    await recordAt(450, "plant.created", 9);
    const stop = new AbortController();
    const pruned = await pruneActivity(DEFAULTS, { ...FAST, stepRows: 2, signal: stop.signal, onStep: () => stop.abort() });
    expect(pruned).toEqual({ records: 2, signIns: 0 });
    expect(await count()).toBe(7);
  });

  it("finds old sign-ins by their partial index, not by reading every record", async () => {
    const step = oldSignInsStep(NOW, 250);
    const plan =
      database.provider === "sqlite"
        ? (await db().$queryRaw<{ detail: string }[]>`EXPLAIN QUERY PLAN ${step}`).map((row) => row.detail)
        : // A table this small is read whole whatever the indexes: the planner is asked whether the index serves.
          await db().$transaction(async (tx) => {
            await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
            return (await tx.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${step}`)).map((row) => row["QUERY PLAN"]);
          });
    expect(plan.join("\n")).toContain("activity_sign_in_occurred_at_idx");
  });
});

describe("startActivityRetention", () => {
  it("prunes shortly after start and again at every interval, until stopped", async () => {
    const old = () => recordAt(2, "plant.created", 1, new Date());
    await old();
    await recordAt(0, "plant.updated", 1, new Date());
    const retention = startActivityRetention({ recordsMs: DAY, signInsMs: DAY }, { firstRunMs: 0, intervalMs: 100 })!;
    try {
      await expect.poll(count).toBe(1);
      await old();
      await expect.poll(count).toBe(1);
    } finally {
      await retention.stop();
    }
    await old();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await count()).toBe(2);
  });

  it("starts nothing when every record is kept forever", () => {
    expect(startActivityRetention({ recordsMs: null, signInsMs: null })).toBeUndefined();
  });
});

import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { createPlant, deletePlant, getPlant, getVersionedPlant, type Plant, updatePlant, type VersionCheck } from "@/lib/plants/plant-queries";
import { plantVersionTag } from "@/lib/plants/plant-version";
import { groupCommitBatches } from "@/test/support/group-commit-batches";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { storedPlants } from "@/test/support/test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The data layer on a real SQLite file; the HTTP suite covers the same rules
// through the API. Here: what one batch decides, the domain errors, and
// changes that race (a write lands between a change's read and its write).

const database = setUpTestDatabase();

/** What a check throws to refuse a version: the version it was given. */
class Refused extends Error {}

/** A check as If-Match makes one (lib/http/preconditions.ts): it passes only the versions named. */
const onlyAt =
  (...tags: string[]): VersionCheck =>
  (current) => {
    if (!tags.includes(plantVersionTag(current))) throw new Refused(plantVersionTag(current));
  };

describe("createPlant", () => {
  it("decides each of the plants that arrive together, written as one batch: new, the same again, or a conflict", async () => {
    await createPlant({ id: 1n, name: "Fern" }, TEST_BY);
    const batchesBefore = (await groupCommitBatches()).count;
    // Asked in one turn of the event loop: the group commit writes them together.
    const settled = await Promise.allSettled(
      [
        { id: 2n, name: "Ivy", tag: "climber" },
        { id: 1n, name: "Fern" },
        { id: 1n, name: "Palm" },
        { id: 2n, name: "Ivy", tag: "climber" },
        { id: 2n, name: "Ivy" },
        { id: 9223372036854775807n, name: "Edge" },
      ].map((plant) => createPlant(plant, TEST_BY)),
    );
    expect((await groupCommitBatches()).count).toBe(batchesBefore + 1);
    expect(settled.map((outcome) => (outcome.status === "fulfilled" ? [outcome.value.status, outcome.value.plant] : outcome.reason))).toEqual([
      ["stored", { id: 2n, name: "Ivy", tag: "climber" }],
      ["already stored", { id: 1n, name: "Fern" }],
      new PlantConflictError(1n),
      ["already stored", { id: 2n, name: "Ivy", tag: "climber" }],
      new PlantConflictError(2n),
      ["stored", { id: 9223372036854775807n, name: "Edge" }],
    ]);
    expect(await storedPlants(database)).toEqual([
      { id: 1n, name: "Fern", tag: null },
      { id: 2n, name: "Ivy", tag: "climber" },
      { id: 9223372036854775807n, name: "Edge", tag: null },
    ]);
  });
});

describe("getPlant and deletePlant", () => {
  it("throw PlantNotFoundError for an id no plant has", async () => {
    await createPlant({ id: 10n, name: "Moss" }, TEST_BY);
    expect(await getPlant(10n)).toEqual({ id: 10n, name: "Moss" });
    await deletePlant(10n, TEST_BY);
    await expect(getPlant(10n)).rejects.toEqual(new PlantNotFoundError(10n));
    await expect(deletePlant(10n, TEST_BY)).rejects.toBeInstanceOf(PlantNotFoundError);
  });
});

/** The columns a change writes besides name and tag. */
async function versionRow(id: bigint) {
  const row = await db().plant.findUnique({ where: { id }, select: { version: true, updatedAt: true, createdAt: true } });
  return row && { version: row.version, updated: row.updatedAt !== null, createdAt: row.createdAt };
}

const rename = (name: string) => (stored: Plant): Plant => ({ ...stored, name });

describe("versions", () => {
  it("a new plant is at version 1, created when the answer says; an identical repeat answers the same version, as already stored", async () => {
    const { status, ...created } = await createPlant({ id: 20n, name: "Aloe" }, TEST_BY);
    const stored = await versionRow(20n);
    expect(status).toBe("stored");
    expect(created).toEqual({ plant: { id: 20n, name: "Aloe" }, version: 1, createdAt: stored?.createdAt });
    expect(await createPlant({ id: 20n, name: "Aloe" }, TEST_BY)).toEqual({ status: "already stored", ...created });
    expect(await getVersionedPlant(20n)).toEqual(created);
  });

  it("tells the plants of one group commit apart: each is stored or already stored on its own", async () => {
    await createPlant({ id: 22n, name: "Known" }, TEST_BY);
    // Called in one turn of the event loop: one batch, one statement.
    const answers = await Promise.all([createPlant({ id: 22n, name: "Known" }, TEST_BY), createPlant({ id: 23n, name: "New" }, TEST_BY), createPlant({ id: 23n, name: "New" }, TEST_BY)]);
    expect(answers.map(({ status, plant }) => ({ status, id: plant.id }))).toEqual([
      { status: "already stored", id: 22n },
      { status: "stored", id: 23n },
      { status: "already stored", id: 23n },
    ]);
  });

  it("reads created_at as Prisma does, whatever the process's time zone", async () => {
    await createPlant({ id: 21n, name: "Zoned" }, TEST_BY);
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect((await getVersionedPlant(21n)).createdAt).toEqual((await versionRow(21n))?.createdAt);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe("updatePlant", () => {
  it("writes what the change makes: one version more, updated_at set", async () => {
    await createPlant({ id: 30n, name: "Fern", tag: "green" }, TEST_BY);
    const changed = await updatePlant(30n, TEST_BY, (stored) => ({ id: stored.id, name: "Fern", tag: undefined }));
    expect(changed.plant).toEqual({ id: 30n, name: "Fern" });
    expect(changed.version).toBe(2);
    expect(await versionRow(30n)).toMatchObject({ version: 2, updated: true });
    expect(await getVersionedPlant(30n)).toEqual(changed);
  });

  it("writes nothing for a change that changes nothing", async () => {
    const created = await createPlant({ id: 31n, name: "Same", tag: "t" }, TEST_BY);
    expect(await updatePlant(31n, TEST_BY, (stored) => ({ ...stored }))).toEqual({ plant: created.plant, version: created.version, createdAt: created.createdAt });
    expect(await versionRow(31n)).toMatchObject({ version: 1, updated: false });
  });

  it("throws PlantNotFoundError for an absent plant, whatever the condition, which it does not call", async () => {
    await expect(updatePlant(32n, TEST_BY, rename("x"))).rejects.toEqual(new PlantNotFoundError(32n));
    const check = vi.fn();
    await expect(updatePlant(32n, TEST_BY, rename("x"), check)).rejects.toEqual(new PlantNotFoundError(32n));
    expect(check).not.toHaveBeenCalled();
  });

  it("changes only a plant at a version the condition passes", async () => {
    const created = await createPlant({ id: 33n, name: "Ivy" }, TEST_BY);
    const current = plantVersionTag(created);
    await expect(updatePlant(33n, TEST_BY, rename("Not"), onlyAt("2.0", `${current}x`))).rejects.toEqual(new Refused(current));
    await expect(updatePlant(33n, TEST_BY, rename("Not"), onlyAt())).rejects.toBeInstanceOf(Refused);
    expect(await versionRow(33n)).toMatchObject({ version: 1, updated: false });
    expect((await updatePlant(33n, TEST_BY, rename("Ivy II"), onlyAt("2.0", current))).version).toBe(2);
    // The tag read before the change names a version that is gone.
    await expect(updatePlant(33n, TEST_BY, rename("Ivy III"), onlyAt(current))).rejects.toBeInstanceOf(Refused);
    expect(await getPlant(33n)).toEqual({ id: 33n, name: "Ivy II" });
  });

  it("loses no change to a write between its read and its own: it changes the plant as it is then", async () => {
    await createPlant({ id: 34n, name: "Palm", tag: "old" }, TEST_BY);
    let calls = 0;
    const changed = await updatePlant(34n, TEST_BY, async (stored) => {
      // The first time, another writer changes the tag after this change read the plant.
      if (calls++ === 0) await db().plant.update({ where: { id: 34n }, data: { tag: "new", version: { increment: 1 } } });
      return { ...stored, name: "Palm II" };
    });
    expect(calls).toBe(2);
    expect(changed).toMatchObject({ plant: { id: 34n, name: "Palm II", tag: "new" }, version: 3 });
    expect(await getPlant(34n)).toEqual({ id: 34n, name: "Palm II", tag: "new" });
  });

  it("refuses, under a condition, when a write lands between its read and its own", async () => {
    const created = await createPlant({ id: 35n, name: "Cactus" }, TEST_BY);
    const change = async (stored: Plant) => {
      await db().plant.update({ where: { id: 35n }, data: { name: "Other", version: { increment: 1 } } });
      return { ...stored, name: "Mine" };
    };
    await expect(updatePlant(35n, TEST_BY, change, onlyAt(plantVersionTag(created)))).rejects.toBeInstanceOf(Refused);
    expect(await getPlant(35n)).toEqual({ id: 35n, name: "Other" });
  });

  it("judges the condition on the version it writes: a write that makes the version the condition refuses, between the read and the write, is not overwritten", async () => {
    const created = await createPlant({ id: 38n, name: "Yucca" }, TEST_BY);
    // As If-None-Match makes one: any version but the next.
    const next = plantVersionTag({ version: 2, createdAt: created.createdAt });
    const notAt: VersionCheck = (current) => {
      if (plantVersionTag(current) === next) throw new Refused(next);
    };
    let calls = 0;
    const change = async (stored: Plant) => {
      if (calls++ === 0) await db().plant.update({ where: { id: 38n }, data: { name: "Theirs", version: { increment: 1 } } });
      return { ...stored, name: "Mine" };
    };
    await expect(updatePlant(38n, TEST_BY, change, notAt)).rejects.toEqual(new Refused(next));
    expect(await getPlant(38n)).toEqual({ id: 38n, name: "Theirs" });
  });

  it("never changes a new plant under the same id for the one it read, though both are at version 1", async () => {
    await db().plant.create({ data: { id: 36n, name: "First", createdAt: new Date("2026-01-01T00:00:00.000Z") } });
    let calls = 0;
    const change = async (stored: Plant) => {
      if (calls++ === 0) {
        await db().plant.delete({ where: { id: 36n } });
        await db().plant.create({ data: { id: 36n, name: "Second", tag: "kept", createdAt: new Date("2026-01-02T00:00:00.000Z") } });
      }
      return { ...stored, name: `${stored.name}, renamed` };
    };
    const firstTag = plantVersionTag({ version: 1, createdAt: new Date("2026-01-01T00:00:00.000Z") });
    await expect(updatePlant(36n, TEST_BY, change, onlyAt(firstTag))).rejects.toBeInstanceOf(Refused);
    expect(await getPlant(36n)).toEqual({ id: 36n, name: "Second", tag: "kept" });
    calls = 1;
    expect((await updatePlant(36n, TEST_BY, change)).plant).toEqual({ id: 36n, name: "Second, renamed", tag: "kept" });
  });

  it("changes a plant whose created_at another program wrote in its own format", async () => {
    await db().$executeRaw`INSERT INTO "plants" ("id", "name", "created_at") VALUES (${37n}, 'Raw', '2026-11-23 08:00:00')`;
    const changed = await updatePlant(37n, TEST_BY, rename("Cooked"));
    expect(changed).toEqual({ plant: { id: 37n, name: "Cooked" }, version: 2, createdAt: new Date("2026-11-23T08:00:00.000Z") });
    await deletePlant(37n, TEST_BY, onlyAt(plantVersionTag(changed)));
    await expect(getPlant(37n)).rejects.toBeInstanceOf(PlantNotFoundError);
  });
});

describe("deletePlant under a condition", () => {
  it("deletes only a plant at a version the condition passes", async () => {
    const created = await createPlant({ id: 40n, name: "Basil" }, TEST_BY);
    await expect(deletePlant(40n, TEST_BY, onlyAt("1.0"))).rejects.toEqual(new Refused(plantVersionTag(created)));
    expect(await getPlant(40n)).toEqual({ id: 40n, name: "Basil" });
    await deletePlant(40n, TEST_BY, onlyAt("1.0", plantVersionTag(created)));
    await expect(deletePlant(40n, TEST_BY, onlyAt(plantVersionTag(created)))).rejects.toBeInstanceOf(PlantNotFoundError);
  });

  it("refuses when a change lands between its read and its delete", async () => {
    const created = await createPlant({ id: 41n, name: "Mint" }, TEST_BY);
    await updatePlant(41n, TEST_BY, rename("Mint II"));
    await expect(deletePlant(41n, TEST_BY, onlyAt(plantVersionTag(created)))).rejects.toBeInstanceOf(Refused);
    expect(await getPlant(41n)).toEqual({ id: 41n, name: "Mint II" });
  });
});

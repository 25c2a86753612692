import { describe, expect, it } from "vitest";
import { type Attribution, personActor, tokenActor } from "@/lib/activity/actor";
import { plantHistory } from "@/lib/activity/history";
import { db } from "@/lib/db/client";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { createPlant, createPlants, deletePlant, updatePlant } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// The activity record of plants (issue 22) on a real database of the run's
// engine: one record per plant stored, changed or deleted, with who and from
// where, and only the fields that changed; none for a write that changed
// nothing or was refused; and the record and the change commit together.

const database = setUpTestDatabase();

const ORIGIN = { clientAddress: "203.0.113.7", userAgent: "till-sync/2.1", requestId: "7b0c3f5e-0000-4000-8000-000000000001" };
const ANA: Attribution = { actor: personActor({ id: "user-ana", name: "Ana Lopez" }), origin: ORIGIN };
const TILL: Attribution = { actor: tokenActor({ id: "token-till", label: "till sync", ownerId: "user-ana" }), origin: ORIGIN };

const records = async (id: bigint) => (await plantHistory(id, { limit: 100 })).entries;
const count = async () => Number((await database.query<{ n: unknown }>("SELECT count(*) AS n FROM activity"))[0]!.n);

describe("plants' activity", () => {
  it("records a create, a change and a delete with who made them, from where, newest first, ids exact", async () => {
    const id = 9007199254740993n;
    await createPlant({ id, name: "Monstera", tag: "aroid" }, TILL);
    await updatePlant(id, ANA, (stored) => ({ ...stored, name: "Monstera deliciosa" }));
    await updatePlant(id, ANA, (stored) => ({ id: stored.id, name: stored.name }));
    await deletePlant(id, TILL);

    const history = await records(id);
    expect(history.map((entry) => entry.action)).toEqual(["plant.deleted", "plant.updated", "plant.updated", "plant.created"]);
    const [deleted, untagged, renamed, created] = history;
    expect(created).toMatchObject({
      subjectKind: "plant",
      subjectId: "9007199254740993",
      actor: { kind: "token", tokenId: "token-till", userId: "user-ana", name: "till sync" },
      origin: ORIGIN,
      changes: { after: { id, name: "Monstera", tag: "aroid" } },
    });
    expect(renamed!.changes).toEqual({ before: { name: "Monstera" }, after: { name: "Monstera deliciosa" } });
    expect(renamed!.actor).toEqual({ kind: "person", userId: "user-ana", tokenId: null, name: "Ana Lopez" });
    expect(untagged!.changes).toEqual({ before: { tag: "aroid" }, after: { tag: null } });
    // A deleted plant's record keeps it whole, as it was, exact to the last digit.
    expect(deleted!.changes).toEqual({ before: { id, name: "Monstera deliciosa" } });
    expect(typeof (deleted!.changes.before as { id: unknown }).id).toBe("bigint");
    expect(history.map((entry) => entry.id)).toEqual([...history.map((entry) => entry.id)].sort((a, b) => (a > b ? -1 : 1)));
  });

  it("records nothing for a write that changed nothing or was refused", async () => {
    await createPlant({ id: 5n, name: "Fern" }, TILL);
    const before = await count();
    // The same plant again: already stored, nothing written.
    await createPlant({ id: 5n, name: "Fern" }, TILL);
    await expect(createPlant({ id: 5n, name: "Not a fern" }, TILL)).rejects.toBeInstanceOf(PlantConflictError);
    await updatePlant(5n, ANA, (stored) => stored);
    await expect(updatePlant(5n, ANA, () => ({ id: 5n, name: "x" }), () => {
      throw new Error("If-Match refused it");
    })).rejects.toThrow("If-Match refused it");
    await expect(deletePlant(6n, ANA)).rejects.toBeInstanceOf(PlantNotFoundError);
    expect(await count()).toBe(before);
  });

  it("records each plant a batch stores, and none of those it finds stored or refuses", async () => {
    await createPlant({ id: 20n, name: "Ivy" }, TILL);
    const before = await count();
    const outcomes = await createPlants(
      [
        { id: 21n, name: "Aloe" },
        { id: 20n, name: "Ivy" },
        { id: 20n, name: "Not ivy" },
        { id: 22n, name: "Jade", tag: "succulent" },
      ],
      ANA,
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["stored", "already stored", "conflict", "stored"]);
    expect(await count()).toBe(before + 2);
    expect((await records(22n))[0]).toMatchObject({ action: "plant.created", actor: { kind: "person" }, changes: { after: { id: 22n, name: "Jade", tag: "succulent" } } });
  });

  it("pages a history newest first, continuing before the oldest entry seen", async () => {
    await createPlant({ id: 30n, name: "v0" }, TILL);
    for (let n = 1; n <= 4; n++) await updatePlant(30n, ANA, () => ({ id: 30n, name: `v${n}` }));
    const first = await plantHistory(30n, { limit: 2 });
    expect(first.entries.map((entry) => entry.changes.after?.name)).toEqual(["v4", "v3"]);
    const second = await plantHistory(30n, { limit: 2, before: first.next! });
    expect(second.entries.map((entry) => entry.changes.after?.name)).toEqual(["v2", "v1"]);
    const last = await plantHistory(30n, { limit: 2, before: second.next! });
    expect(last).toEqual({ entries: [expect.objectContaining({ action: "plant.created" })], next: null });
  });

  it("commits a change and its record together: when the record cannot be written, neither is", async () => {
    await createPlant({ id: 42n, name: "Named" }, TILL);
    await createPlant({ id: 43n, name: "Kept" }, TILL);
    await database.query('ALTER TABLE "activity" RENAME TO "activity_away"');
    try {
      await expect(createPlant({ id: 40n, name: "Orphan" }, TILL)).rejects.toThrow();
      await expect(createPlants([{ id: 41n, name: "Orphan" }], TILL)).rejects.toThrow();
      await expect(updatePlant(42n, ANA, () => ({ id: 42n, name: "Renamed" }))).rejects.toThrow();
      await expect(deletePlant(43n, ANA)).rejects.toThrow();
      await expect(deletePlant(43n, ANA, () => undefined)).rejects.toThrow();
    } finally {
      await database.query('ALTER TABLE "activity_away" RENAME TO "activity"');
    }
    expect(await db().plant.findMany({ where: { id: { in: [40n, 41n] } } })).toEqual([]);
    // The change failed with its record: the plants are as they were.
    expect(await db().plant.findMany({ where: { id: { in: [42n, 43n] } }, select: { id: true, name: true, version: true }, orderBy: { id: "asc" } })).toEqual([
      { id: 42n, name: "Named", version: 1 },
      { id: 43n, name: "Kept", version: 1 },
    ]);
  });

  it("records each of many racing changes once, as the change it made: no record for a write that lost its race", async () => {
    await createPlant({ id: 60n, name: "v0" }, TILL);
    // Each change reads the plant and writes it only as read; a lost race writes nothing and tries again.
    await Promise.all(Array.from({ length: 20 }, (_, n) => updatePlant(60n, ANA, () => ({ id: 60n, name: `racer ${n}` }))));
    const [plant] = await db().plant.findMany({ where: { id: 60n } });
    const changes = (await records(60n)).filter((entry) => entry.action === "plant.updated").reverse();
    expect(changes).toHaveLength(plant!.version - 1);
    // Oldest first, each change starts from the name the one before it left.
    let name = "v0";
    for (const change of changes) {
      expect(change.changes.before).toEqual({ name });
      name = change.changes.after!.name as string;
    }
    expect(name).toBe(plant!.name);
  });

  it("records a change at the very time the plant says it changed", async () => {
    await createPlant({ id: 50n, name: "Basil" }, TILL);
    await updatePlant(50n, ANA, () => ({ id: 50n, name: "Thai basil" }));
    const [changed] = await records(50n);
    const [plant] = await db().plant.findMany({ where: { id: 50n } });
    expect(changed!.occurredAt).toEqual(plant!.updatedAt);
  });
});

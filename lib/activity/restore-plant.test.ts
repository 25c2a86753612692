import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { type Attribution, personActor } from "@/lib/activity/actor";
import { plantHistory } from "@/lib/activity/history";
import { RestoreRefusedError, restorePlant } from "@/lib/activity/restore-plant";
import { parseExactJson } from "@/lib/json/exact-json";
import { createPlant, deletePlant, findPlantRecord } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Undoing a delete (issue 22) on a real database of the run's engine: the
// plant comes back exactly as it was, as a new plant, with its plant.created
// event in the webhooks' outbox and a plant.restored record, all in one
// transaction; an id taken meanwhile is refused, and nothing is written.

const database = setUpTestDatabase();

const ANA: Attribution = { actor: personActor({ id: "user-ana", name: "Ana Lopez" }), origin: { clientAddress: "203.0.113.7", userAgent: "Firefox", requestId: null } };
const BEN: Attribution = { actor: personActor({ id: "user-ben", name: "Ben Okafor" }), origin: null };

let endpointId: string;

beforeAll(async () => {
  // An endpoint that wants plant.created, so the outbox trigger writes the event (it writes none that nobody wants).
  endpointId = randomUUID();
  await database.query("INSERT INTO webhook_endpoints (id, url, description, events, secret) VALUES ($1, 'https://receiver.example/hook', '', 'plant.created plant.deleted', 'sealed')", [
    endpointId,
  ]);
});

/** Stores a plant and deletes it; answers the delete's record id. */
async function storedAndDeleted(plant: { id: bigint; name: string; tag?: string }): Promise<bigint> {
  await createPlant(plant, BEN);
  await deletePlant(plant.id, BEN);
  const [deleted] = (await plantHistory(plant.id, { limit: 1 })).entries;
  expect(deleted?.action).toBe("plant.deleted");
  return deleted!.id;
}

type Event = { type: string; data: { id: bigint; name: string; tag?: string } };

async function createdEvents(id: bigint): Promise<Event[]> {
  const rows = await database.query<{ type: string; data: string }>("SELECT type, data FROM webhook_events WHERE type = 'plant.created' ORDER BY created_at, id");
  return rows.map((row) => ({ type: row.type, data: parseExactJson(row.data) as Event["data"] })).filter((event) => event.data.id === id);
}

type Counts = { plants: number; activity: number; events: number; deliveries: number };

async function counts(): Promise<Counts> {
  const count = async (table: string) => Number((await database.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
  return { plants: await count("plants"), activity: await count("activity"), events: await count("webhook_events"), deliveries: await count("webhook_deliveries") };
}

describe("restorePlant", () => {
  it("stores the plant exactly as it was (id above 2^53, name, tag) as a new plant, with its plant.created event and a plant.restored record", async () => {
    const plant = { id: 9007199254740993n, name: "Monstera deliciosa", tag: "aroid" };
    const deleteId = await storedAndDeleted(plant);
    const before = Date.now();

    const restored = await restorePlant(deleteId, ANA);
    expect(restored).toEqual({ plant, version: 1, createdAt: expect.any(Date) });
    expect(restored.createdAt.getTime()).toBeGreaterThanOrEqual(before);

    const stored = await findPlantRecord(plant.id);
    expect(stored).toEqual({ plant, version: 1, createdAt: restored.createdAt, updatedAt: null });

    // The first create's event, and the restore's: webhook receivers learn of the plant as of any new one.
    const events = await createdEvents(plant.id);
    expect(events).toEqual([
      { type: "plant.created", data: plant },
      { type: "plant.created", data: plant },
    ]);
    const deliveries = await database.query<{ n: unknown }>(
      "SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = $1 AND e.type = 'plant.created'",
      [endpointId],
    );
    expect(Number(deliveries[0]!.n)).toBe(events.length);

    const history = (await plantHistory(plant.id, { limit: 10 })).entries;
    expect(history.map((entry) => entry.action)).toEqual(["plant.restored", "plant.deleted", "plant.created"]);
    expect(history[0]).toMatchObject({
      subjectKind: "plant",
      subjectId: "9007199254740993",
      actor: { kind: "person", userId: "user-ana", name: "Ana Lopez" },
      origin: ANA.origin,
      changes: { after: plant, restoredFrom: deleteId },
      occurredAt: restored.createdAt,
    });
    expect(typeof history[0]!.changes.restoredFrom).toBe("bigint");
  });

  it("restores a plant that had no tag without one", async () => {
    const plant = { id: -9223372036854775808n, name: "Untagged" };
    const restored = await restorePlant(await storedAndDeleted(plant), ANA);
    expect(restored.plant).toEqual(plant);
    expect((await findPlantRecord(plant.id))?.plant).toEqual(plant);
    expect((await createdEvents(plant.id)).at(-1)?.data).toEqual(plant);
  });

  it("refuses an id taken meanwhile, and writes nothing: no plant, no record, no event", async () => {
    const deleteId = await storedAndDeleted({ id: 500n, name: "Aloe" });
    await createPlant({ id: 500n, name: "Another plant" }, BEN);
    const before = await counts();
    const refusal = restorePlant(deleteId, ANA);
    await expect(refusal).rejects.toBeInstanceOf(RestoreRefusedError);
    await expect(refusal).rejects.toThrow("Plant 500 was not restored: its id has been taken by a plant stored since it was deleted. Nothing was changed.");
    expect(await counts()).toEqual(before);
    expect((await findPlantRecord(500n))?.plant).toEqual({ id: 500n, name: "Another plant" });
  });

  it("restores the same delete once: the second time, the id is taken", async () => {
    const deleteId = await storedAndDeleted({ id: 501n, name: "Jade", tag: "succulent" });
    await restorePlant(deleteId, ANA);
    const before = await counts();
    await expect(restorePlant(deleteId, ANA)).rejects.toThrow("Plant 501 was not restored: its id has been taken");
    expect(await counts()).toEqual(before);
  });

  it("of two restores of one delete at once, exactly one stores the plant", async () => {
    const deleteId = await storedAndDeleted({ id: 502n, name: "Pothos" });
    const before = await counts();
    const outcomes = await Promise.allSettled([restorePlant(deleteId, ANA), restorePlant(deleteId, BEN)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const after = await counts();
    expect(after.plants - before.plants).toBe(1);
    expect(after.activity - before.activity).toBe(1);
    expect(after.events - before.events).toBe(1);
  });

  it("refuses a record that is not a plant's delete, or that does not exist", async () => {
    await createPlant({ id: 510n, name: "Only created" }, BEN);
    const [created] = (await plantHistory(510n, { limit: 1 })).entries;
    const before = await counts();
    await expect(restorePlant(created!.id, ANA)).rejects.toThrow(`Record ${created!.id} is not a plant's delete (it is plant.created): only a deleted plant can be restored.`);
    await expect(restorePlant(9223372036854775807n, ANA)).rejects.toThrow("No activity record has id 9223372036854775807.");
    expect(await counts()).toEqual(before);
  });
});

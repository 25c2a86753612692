import { expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { PlantConflictError } from "@/lib/plants/plant-errors";
import { createPlant, createPlants, type NewPlantOutcome, previewCreatePlants } from "@/lib/plants/plant-queries";
import type { NewPlant } from "@/lib/validations/plant";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { storedPlants } from "@/test/support/test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// previewCreatePlants (the staff import's preview, issue 11) on a real
// database of the run's engine: it must answer what createPlants then does
// with the same plants, and write nothing (no plant, no webhook event).

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
const database = setUpTestDatabase();

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

/** What an outcome says, without the times of writing (the preview's "stored" cannot know the batch's). */
const decision = (outcome: NewPlantOutcome) => (outcome.status === "conflict" ? outcome : { status: outcome.status, plant: outcome.plant, version: outcome.version });

async function writes() {
  return { plants: await storedPlants(database), events: await db().webhookEvent.count(), deliveries: await db().webhookDelivery.count() };
}

it("answers what createPlants then does, in the batch's order, and writes nothing", async () => {
  await createWebhookEndpoint({ url: "http://127.0.0.1:9/created", events: ["plant.created"], description: "" }, TEST_BY);
  await createPlant({ id: 1n, name: "Fern" }, TEST_BY);
  await createPlant({ id: 2n, name: "Ivy", tag: "climber" }, TEST_BY);
  await createPlant({ id: 9007199254740993n, name: "Monstera", tag: "aroid" }, TEST_BY);
  const batch: NewPlant[] = [
    { id: MAX, name: "Highest", tag: "edge" },
    { id: 1n, name: "Fern" },
    { id: 2n, name: "Ivy" },
    { id: 3n, name: "Moss" },
    { id: 3n, name: "Moss" },
    { id: 3n, name: "Other moss" },
    { id: 9007199254740993n, name: "Monstera", tag: "aroid" },
    { id: 9007199254740995n, name: "Beyond 2^53" },
    { id: 1n, name: "Not fern" },
    { id: MIN, name: "Lowest" },
  ];
  const before = await writes();

  const preview = await previewCreatePlants(batch);
  expect(preview.map(decision)).toEqual([
    { status: "stored", plant: { id: MAX, name: "Highest", tag: "edge" }, version: 1 },
    { status: "already stored", plant: { id: 1n, name: "Fern" }, version: 1 },
    { status: "conflict", error: new PlantConflictError(2n) },
    { status: "stored", plant: { id: 3n, name: "Moss" }, version: 1 },
    { status: "already stored", plant: { id: 3n, name: "Moss" }, version: 1 },
    { status: "conflict", error: new PlantConflictError(3n) },
    { status: "already stored", plant: { id: 9007199254740993n, name: "Monstera", tag: "aroid" }, version: 1 },
    { status: "stored", plant: { id: 9007199254740995n, name: "Beyond 2^53" }, version: 1 },
    { status: "conflict", error: new PlantConflictError(1n) },
    { status: "stored", plant: { id: MIN, name: "Lowest" }, version: 1 },
  ]);
  expect(await writes()).toEqual(before);

  expect((await createPlants(batch, TEST_BY)).map(decision)).toEqual(preview.map(decision));
  // Now every plant the preview would have stored is there: the same batch again is already stored or a conflict throughout.
  const again = await previewCreatePlants(batch);
  expect(again.map((outcome) => outcome.status)).toEqual(["already stored", "already stored", "conflict", "already stored", "already stored", "conflict", "already stored", "already stored", "conflict", "already stored"]);
  expect((await createPlants(batch, TEST_BY)).map(decision)).toEqual(again.map(decision));
  await db().webhookEndpoint.deleteMany();
});

it("gives a stored plant's own version, as the batch does", async () => {
  await createPlant({ id: 100n, name: "Aloe" }, TEST_BY);
  await db().plant.update({ where: { id: 100n }, data: { version: 4 } });
  const [outcome] = await previewCreatePlants([{ id: 100n, name: "Aloe" }]);
  const stored = await db().plant.findUniqueOrThrow({ where: { id: 100n } });
  expect(outcome).toEqual({ status: "already stored", plant: { id: 100n, name: "Aloe" }, version: 4, createdAt: stored.createdAt });
});

it("reads a batch larger than one statement's slice, with repeats across slices", async () => {
  await createPlants(Array.from({ length: 300 }, (_, n) => ({ id: 1_000n + BigInt(n * 2), name: `Even ${n}` })), TEST_BY);
  // 1,000 ids, every other one stored, then a repeat of the first new one and a changed stored one.
  const batch: NewPlant[] = Array.from({ length: 1_000 }, (_, n) => ({ id: 1_000n + BigInt(n), name: n % 2 === 0 && n < 600 ? `Even ${n / 2}` : `New ${n}` }));
  batch.push({ id: 1_001n, name: "Not new 1" }, { id: 1_002n, name: "Changed" });
  const before = await writes();
  const preview = await previewCreatePlants(batch);
  expect(await writes()).toEqual(before);
  expect((await createPlants(batch, TEST_BY)).map(decision)).toEqual(preview.map(decision));
  expect(preview.filter((outcome) => outcome.status === "stored")).toHaveLength(700);
  expect(preview.slice(1_000).map((outcome) => outcome.status)).toEqual(["conflict", "conflict"]);
  expect(await previewCreatePlants([])).toEqual([]);
});

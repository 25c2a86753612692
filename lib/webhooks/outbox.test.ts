import { expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createPlant, deletePlant, updatePlant } from "@/lib/plants/plant-queries";
import { createWebhookEndpoint, disableWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The transactional outbox (the triggers in the webhooks migration), on a real
// database of the run's engine: an event is written by the very transaction
// of the change it reports, once, with a delivery for each enabled endpoint
// that asked for its type, and nothing when the change does not happen.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
setUpTestDatabase();

async function events() {
  const rows = await db().webhookEvent.findMany({ orderBy: { createdAt: "asc" }, include: { deliveries: { select: { endpointId: true, status: true, attempts: true } } } });
  return rows.map((row) => ({ type: row.type, data: row.data, endpoints: row.deliveries.map((each) => each.endpointId).sort(), deliveries: row.deliveries }));
}

it("writes nothing while no enabled endpoint wants the event", async () => {
  await createPlant({ id: 1n, name: "Unheard" }, TEST_BY);
  const { endpoint } = await createWebhookEndpoint({ url: "http://127.0.0.1:9/hooks", events: ["plant.deleted"], description: "" }, TEST_BY);
  await createPlant({ id: 2n, name: "Still unheard" }, TEST_BY);
  await disableWebhookEndpoint(endpoint.id, "test", TEST_BY);
  await deletePlant(1n, TEST_BY);
  expect(await events()).toEqual([]);
  await db().webhookEndpoint.deleteMany();
});

it("writes one event per plant created or deleted, ids exact, with a pending delivery for each endpoint that asked for it", async () => {
  const both = (await createWebhookEndpoint({ url: "http://127.0.0.1:9/both", events: ["plant.created", "plant.deleted"], description: "" }, TEST_BY)).endpoint;
  const created = (await createWebhookEndpoint({ url: "http://127.0.0.1:9/created", events: ["plant.created"], description: "" }, TEST_BY)).endpoint;
  await createPlant({ id: 9223372036854775807n, name: 'Highest ✿ "quoted" \\', tag: "edge" }, TEST_BY);
  // An identical repeat stores nothing and so reports nothing; nor does a conflict.
  const repeat = await Promise.allSettled(
    [
      { id: 9223372036854775807n, name: 'Highest ✿ "quoted" \\', tag: "edge" },
      { id: 9223372036854775807n, name: "Other", tag: "edge" },
      { id: -9223372036854775808n, name: "Lowest" },
    ].map((plant) => createPlant(plant, TEST_BY)),
  );
  expect(repeat.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  await deletePlant(9223372036854775807n, TEST_BY);

  // Two events may share a millisecond: in a fixed order, by type, then data.
  const written = (await events()).sort((a, b) => a.type.localeCompare(b.type) || b.data.localeCompare(a.data));
  expect(written.map(({ type, endpoints }) => ({ type, endpoints }))).toEqual([
    { type: "plant.created", endpoints: [both.id, created.id].sort() },
    { type: "plant.created", endpoints: [both.id, created.id].sort() },
    { type: "plant.deleted", endpoints: [both.id] },
  ]);
  // The data is JSON text written by the database, compact and alike on both
  // engines: the id keeps every digit, text is escaped as JSON, an absent tag stays absent.
  const highest = '{"id":9223372036854775807,"name":"Highest ✿ \\"quoted\\" \\\\","tag":"edge"}';
  expect(written.map((event) => event.data)).toEqual([highest, '{"id":-9223372036854775808,"name":"Lowest"}', highest]);
  expect(written.flatMap((event) => event.deliveries).every((delivery) => delivery.status === "pending" && delivery.attempts === 0)).toBe(true);
});

it("writes no event for a change that is rolled back", async () => {
  const before = (await events()).length;
  await expect(
    db().$transaction(async (tx) => {
      await tx.plant.create({ data: { id: 77n, name: "Never", createdAt: new Date() } });
      throw new Error("roll back");
    }),
  ).rejects.toThrow("roll back");
  expect((await events()).length).toBe(before);
});

it("writes one plant.updated per change, with the plant as it is now, and none for a change that changes nothing", async () => {
  // Only this test's endpoint listens.
  await db().webhookEndpoint.updateMany({ data: { enabled: false } });
  await db().webhookEvent.deleteMany();
  const updated = (await createWebhookEndpoint({ url: "http://127.0.0.1:9/updated", events: ["plant.updated"], description: "" }, TEST_BY)).endpoint;
  await createPlant({ id: 9007199254740993n, name: "Before", tag: "old" }, TEST_BY);
  await updatePlant(9007199254740993n, TEST_BY, (stored) => ({ ...stored }));
  expect(await events()).toEqual([]);
  await updatePlant(9007199254740993n, TEST_BY, (stored) => ({ ...stored, name: "After" }));
  await updatePlant(9007199254740993n, TEST_BY, (stored) => ({ id: stored.id, name: stored.name }));
  await updatePlant(9007199254740993n, TEST_BY, (stored) => ({ ...stored, name: "After" }));
  const written = await events();
  expect(written.map(({ type, data, endpoints }) => ({ type, data, endpoints }))).toEqual([
    { type: "plant.updated", data: '{"id":9007199254740993,"name":"After","tag":"old"}', endpoints: [updated.id] },
    { type: "plant.updated", data: '{"id":9007199254740993,"name":"After"}', endpoints: [updated.id] },
  ]);
});

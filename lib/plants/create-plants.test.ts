import { expect, it, vi } from "vitest";
import { db, type Prisma } from "@/lib/db/client";
import { PlantConflictError } from "@/lib/plants/plant-errors";
import { createPlant, createPlants } from "@/lib/plants/plant-queries";
import type { NewPlant } from "@/lib/validations/plant";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { storedPlants } from "@/test/support/test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// createPlants (POST /plants/batch) on a real database of the run's engine:
// each plant decided as a single create decides it, the whole batch in one
// transaction, its plant.created events written by that transaction, and no
// single create caught inside it.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
const database = setUpTestDatabase();

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

/** A trigger that fails the statement inserting a plant named "Boom", on either engine. */
async function failInsertsNamedBoom(): Promise<void> {
  if (database.provider === "sqlite") {
    await database.exec(`CREATE TRIGGER boom BEFORE INSERT ON plants WHEN NEW.name = 'Boom' BEGIN SELECT RAISE(ABORT, 'boom'); END;`);
    return;
  }
  await database.exec(`
    CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END; $$;
    CREATE TRIGGER boom BEFORE INSERT ON plants FOR EACH ROW WHEN (NEW.name = 'Boom') EXECUTE FUNCTION boom();`);
}

/**
 * Makes every raw statement of the next transactions take 50 ms longer,
 * answering a promise settled once the first has run: the transaction is
 * open then, with time to spare for others to try to join it.
 */
function slowStatementsInTransactions(): Promise<void> {
  const client = db();
  const transaction = client.$transaction.bind(client) as (run: (tx: Prisma.TransactionClient) => Promise<unknown>, options?: object) => Promise<unknown>;
  let resolve = () => {};
  const promise = new Promise<void>((settle) => (resolve = settle));
  vi.spyOn(client, "$transaction").mockImplementation(((run: (tx: Prisma.TransactionClient) => Promise<unknown>, options?: object) =>
    transaction((tx) => {
      const slow = new Proxy(tx, {
        get: (target, key) =>
          key === "$queryRaw"
            ? async (...args: Parameters<typeof target.$queryRaw>) => {
                const rows = await target.$queryRaw(...args);
                resolve();
                await new Promise((done) => setTimeout(done, 50));
                return rows;
              }
            : Reflect.get(target, key),
      });
      return run(slow);
    }, options)) as typeof client.$transaction);
  return promise;
}

/** A plant just stored, or stored and never changed since. */
const FIRST_VERSION = { version: 1, createdAt: expect.any(Date) as Date };

const plantsFrom = (first: bigint, count: number, name = "Batch"): NewPlant[] => Array.from({ length: count }, (_, n) => ({ id: first + BigInt(n), name: `${name} ${n}` }));

it("decides each plant as a single create would, in the batch's order; the first of two with one id decides", async () => {
  await createPlant({ id: 1n, name: "Fern" }, TEST_BY);
  await createPlant({ id: 2n, name: "Ivy" }, TEST_BY);
  const outcomes = await createPlants([
    { id: MAX, name: "Highest", tag: "edge" },
    { id: 1n, name: "Fern" },
    { id: 2n, name: "Not Ivy" },
    { id: 3n, name: "Moss" },
    { id: 3n, name: "Moss" },
    { id: 3n, name: "Other moss" },
    { id: MIN, name: "Lowest" },
  ], TEST_BY);
  expect(outcomes).toEqual([
    { status: "stored", plant: { id: MAX, name: "Highest", tag: "edge" }, ...FIRST_VERSION },
    { status: "already stored", plant: { id: 1n, name: "Fern" }, ...FIRST_VERSION },
    { status: "conflict", error: new PlantConflictError(2n) },
    { status: "stored", plant: { id: 3n, name: "Moss" }, ...FIRST_VERSION },
    { status: "already stored", plant: { id: 3n, name: "Moss" }, ...FIRST_VERSION },
    { status: "conflict", error: new PlantConflictError(3n) },
    { status: "stored", plant: { id: MIN, name: "Lowest" }, ...FIRST_VERSION },
  ]);
  // An identical repeat answers the stored plant's own version: the ETag a single create would send.
  const [, fern] = outcomes;
  expect(fern?.status === "already stored" && fern.createdAt).toEqual((await db().plant.findUnique({ where: { id: 1n } }))?.createdAt);
  expect(await storedPlants(database)).toEqual([
    { id: MIN, name: "Lowest", tag: null },
    { id: 1n, name: "Fern", tag: null },
    { id: 2n, name: "Ivy", tag: null },
    { id: 3n, name: "Moss", tag: null },
    { id: MAX, name: "Highest", tag: "edge" },
  ]);
  expect(await createPlants([], TEST_BY)).toEqual([]);
});

it("decides ids shared across the statements of a large batch as within one", async () => {
  // More plants than one statement inserts: the repeat of the lowest id sorts into the same statement, that of the highest into another.
  const batch = [...plantsFrom(1_000n, 1_000), { id: 1_000n, name: "Batch 0" }, { id: 1_999n, name: "Changed" }];
  const outcomes = await createPlants(batch, TEST_BY);
  expect(outcomes.slice(0, 1_000).every((outcome) => outcome.status === "stored")).toBe(true);
  expect(outcomes.slice(1_000)).toEqual([
    { status: "already stored", plant: { id: 1_000n, name: "Batch 0" }, ...FIRST_VERSION },
    { status: "conflict", error: new PlantConflictError(1_999n) },
  ]);
});

it("writes one plant.created event per plant it stores, and none for the rest", async () => {
  const { endpoint } = await createWebhookEndpoint({ url: "http://127.0.0.1:9/created", events: ["plant.created"], description: "" }, TEST_BY);
  await createPlant({ id: 10_000n, name: "Before" }, TEST_BY);
  const before = await db().webhookEvent.count();
  const outcomes = await createPlants([
    { id: 10_001n, name: 'New "quoted" ✿', tag: "a" },
    { id: 10_000n, name: "Before" },
    { id: 10_000n, name: "Thief" },
    { id: 10_001n, name: 'New "quoted" ✿', tag: "a" },
    { id: 9007199254740993n, name: "Beyond 2^53" },
  ], TEST_BY);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["stored", "already stored", "conflict", "already stored", "stored"]);
  const events = await db().webhookEvent.findMany({ skip: before, orderBy: { createdAt: "asc" }, include: { deliveries: { select: { endpointId: true } } } });
  expect(events.map((event) => event.type)).toEqual(["plant.created", "plant.created"]);
  expect(events.map((event) => event.data).sort()).toEqual(['{"id":10001,"name":"New \\"quoted\\" ✿","tag":"a"}', '{"id":9007199254740993,"name":"Beyond 2^53"}']);
  expect(events.map((event) => event.deliveries)).toEqual([[{ endpointId: endpoint.id }], [{ endpointId: endpoint.id }]]);
  await db().webhookEndpoint.deleteMany();
});

it("stores nothing of a batch whose transaction fails, and keeps the single creates made meanwhile", async () => {
  await failInsertsNamedBoom();
  try {
    const { endpoint } = await createWebhookEndpoint({ url: "http://127.0.0.1:9/created", events: ["plant.created"], description: "" }, TEST_BY);
    const events = await db().webhookEvent.count();
    // The failing plant sorts into the batch's second statement: the first has been written by then.
    const batch = [...plantsFrom(20_000n, 600), { id: 30_000n, name: "Boom" }];
    const singles = plantsFrom(40_000n, 20, "Single");
    // On PostgreSQL the batch's statements are slowed down, and single creates sent while the first is done and
    // its transaction open. SQLite writes the batch in one synchronous step: they are sent as it starts.
    const inTransaction = database.provider === "sqlite" ? Promise.resolve() : slowStatementsInTransactions();
    const batchDone = createPlants(batch, TEST_BY);
    await inTransaction;
    const [batchOutcome, ...singleOutcomes] = await Promise.allSettled([batchDone, ...singles.map((plant) => createPlant(plant, TEST_BY))]);
    vi.restoreAllMocks();
    expect(batchOutcome?.status).toBe("rejected");
    expect(singleOutcomes.map((outcome) => outcome.status)).toEqual(singles.map(() => "fulfilled"));
    const stored = await storedPlants(database);
    expect(stored.filter((plant) => plant.id >= 20_000n && plant.id <= 30_000n)).toEqual([]);
    expect(stored.filter((plant) => plant.id >= 40_000n && plant.id < 50_000n).map((plant) => plant.name)).toEqual(singles.map((plant) => plant.name));
    // The events of the single creates only.
    expect((await db().webhookEvent.count()) - events).toBe(singles.length);
    await db().webhookEndpoint.delete({ where: { id: endpoint.id } });
  } finally {
    await database.exec("DROP TRIGGER boom" + (database.provider === "sqlite" ? "" : " ON plants; DROP FUNCTION boom()"));
  }
});

it("lets concurrent batches and single creates sharing ids store one row per id, each answer matching the row", async () => {
  // As many ids as a batch may hold: enough for writers taking them in opposite orders to deadlock on PostgreSQL.
  const ids = Array.from({ length: 1_000 }, (_, n) => 50_000n + BigInt(n));
  // Each writer has its own name for every id, and the batches list the ids in opposite orders.
  const batches = [0, 1, 2, 3].map((writer) => {
    const order = writer % 2 === 0 ? ids : [...ids].reverse();
    return order.map((id) => ({ id, name: `Writer ${writer}` }));
  });
  const singles = ids.filter((_, n) => n % 50 === 0).map((id) => ({ id, name: "Single" }));
  const [batchAnswers, singleAnswers] = await Promise.all([
    Promise.all(batches.map((batch) => createPlants(batch, TEST_BY))),
    Promise.allSettled(singles.map((plant) => createPlant(plant, TEST_BY))),
  ]);
  const stored = new Map((await storedPlants(database)).filter((plant) => plant.id >= 50_000n && plant.id < 60_000n).map((plant) => [plant.id, plant.name]));
  expect([...stored.keys()].sort()).toEqual(ids);
  batches.forEach((batch, writer) =>
    batch.forEach((plant, n) => {
      const outcome = batchAnswers[writer]![n]!;
      const mine = stored.get(plant.id) === plant.name;
      expect(outcome.status, `writer ${writer}, id ${plant.id}`).toBe(mine ? (outcome.status === "stored" ? "stored" : "already stored") : "conflict");
    }),
  );
  // Each id was stored by exactly one writer.
  for (const id of ids) {
    const byBatches = batches.filter((batch, writer) => batch.some((plant, n) => plant.id === id && batchAnswers[writer]![n]!.status === "stored")).length;
    const bySingle = singles.filter((plant, n) => plant.id === id && singleAnswers[n]!.status === "fulfilled" && stored.get(id) === "Single").length;
    expect(byBatches + bySingle, `id ${id}`).toBe(1);
  }
  singles.forEach((plant, n) => expect(singleAnswers[n]!.status, `single ${plant.id}`).toBe(stored.get(plant.id) === "Single" ? "fulfilled" : "rejected"));
});

import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { storedPlants } from "@/test/support/test-database";
import { addWebhookEndpoint, deliveryRows, disableAllEndpoints, endpointRow, sqlTime, type TestEndpoint } from "@/test/support/webhook-endpoints";
import { parseDeliveryBody, startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

// Webhooks from the built app (issue 9): plants written over the API reach a
// real receiver that verifies every delivery with the standardwebhooks
// library. Each test has an endpoint of its own; the ones before are disabled.

let app: AppServer;
let token: string;
let receiver: WebhookReceiver;
let endpoint: TestEndpoint;
let nextPlant = 1_000n;

// Short retries, so that a test sees several attempts in a second or two.
const SCHEDULE = "0,300ms,300ms,300ms,300ms,300ms";
// Long enough that the receiver in this process answers within it on two busy
// cores (at 1 s, a burst's slowest answer under the full suite's load timed
// out and was, rightly, sent twice; 3 s was not enough on a slow day either);
// short enough to test the time-out.
const TIMEOUT_MS = 10_000;

beforeAll(async () => {
  app = await startApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: SCHEDULE, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  token = await createToken(app.database, ["plants:write", "plants:read"]);
});

afterAll(async () => {
  await app?.stop();
});

// A receiver of its own for each test: an attempt a loaded machine held up past its test reaches
// that test's receiver, closed by then, not the next test's.
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  receiver.script(() => ({ status: 200 }));
  endpoint = await addWebhookEndpoint(app.database, { url: receiver.url });
  receiver.secrets = [endpoint.secret];
});

afterEach(async () => {
  await disableAllEndpoints(app.database);
  await receiver.close();
  expect(receiver.unverified()).toEqual([]);
});

function post(body: string): Promise<number> {
  return fetch(`${app.url}/plants`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body }).then(
    async (response) => (await response.text(), response.status),
  );
}

function remove(id: bigint): Promise<number> {
  return fetch(`${app.url}/plants/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } }).then(async (response) => (await response.text(), response.status));
}

/** Waits a little longer, to see that nothing more comes. */
const quiet = (ms = 1_200) => new Promise((resolve) => setTimeout(resolve, ms));

it("sends one plant.created per plant stored by a concurrent burst with identical repeats and conflicts", async () => {
  const ids = Array.from({ length: 40 }, () => nextPlant++);
  const requests = ids.flatMap((id, index) => [
    { id, name: `Burst ${id}`, body: `{"id":${id},"name":"Burst ${id}","tag":"b"}` },
    // An identical repeat: answered as the first, stores nothing, sends nothing.
    { id, name: `Burst ${id}`, body: `{"id":${id},"name":"Burst ${id}","tag":"b"}` },
    // Every fourth plant also meets a rival with its id: whichever is stored first wins, the other is answered 409.
    ...(index % 4 === 0 ? [{ id, name: `Rival ${id}`, body: `{"id":${id},"name":"Rival ${id}"}` }] : []),
  ]);
  const statuses = await Promise.all(requests.map((request) => post(request.body)));
  const stored = new Map((await storedPlants(app.database)).map((plant) => [String(plant.id), plant]));
  const unexpected = requests.filter((request, index) => statuses[index] !== (stored.get(String(request.id))?.name === request.name ? 200 : 409));
  expect(unexpected).toEqual([]);
  expect(statuses.filter((status) => status === 409).length).toBeGreaterThanOrEqual(10);

  await receiver.waitFor("40 deliveries", () => receiver.received.length >= 40);
  await quiet();
  expect(receiver.received).toHaveLength(40);
  expect(new Set(receiver.received.map((delivery) => delivery.id)).size).toBe(40);
  // Each delivery is the plant as stored, whichever of two rivals won.
  for (const delivery of receiver.received) {
    const body = parseDeliveryBody(delivery.body);
    expect(body.type).toBe("plant.created");
    const plant = stored.get(body.data.id);
    expect(body.data).toEqual({ id: body.data.id, name: plant?.name, ...(plant?.tag ? { tag: plant.tag } : {}) });
    expect(delivery.headers["content-type"]).toBe("application/json");
  }
  expect(new Set(receiver.received.map((delivery) => parseDeliveryBody(delivery.body).data.id))).toEqual(new Set(ids.map(String)));
  const rows = await deliveryRows(app.database, endpoint.id);
  expect(rows.map((row) => `${row.status} ${row.attempts}`)).toEqual(Array(40).fill("delivered 1"));
});

it("sends one plant.deleted for a delete, with the plant as it was, and nothing for a delete of nothing", async () => {
  const id = nextPlant++;
  expect(await post(`{"id":${id},"name":"Short-lived"}`)).toBe(200);
  expect(await remove(id)).toBe(204);
  expect(await remove(id)).toBe(404);
  await receiver.waitFor("2 deliveries", () => receiver.received.length >= 2);
  await quiet();
  const bodies = receiver.received.map((delivery) => parseDeliveryBody(delivery.body)).sort((a, b) => a.type.localeCompare(b.type));
  expect(bodies).toEqual([
    { type: "plant.created", timestamp: expect.any(String), data: { id: String(id), name: "Short-lived" } },
    { type: "plant.deleted", timestamp: expect.any(String), data: { id: String(id), name: "Short-lived" } },
  ]);
});

it("keeps every digit of ids beyond 2^53 in the raw body", async () => {
  const plants = [
    { json: '{"id":9007199254740993,"name":"past 2^53"}', id: "9007199254740993" },
    { json: '{"id":9223372036854775807,"name":"greatest","tag":"edge ✿"}', id: "9223372036854775807" },
    { json: '{"id":-9223372036854775808,"name":"least"}', id: "-9223372036854775808" },
  ];
  for (const plant of plants) expect(await post(plant.json)).toBe(200);
  await receiver.waitFor("3 deliveries", () => receiver.received.length >= 3);
  // The raw text, as a receiver's own parser would meet it (each engine spaces its JSON its own way).
  const ids = receiver.received.map((delivery) => /"data":\{"id"\s*:\s*(-?\d+)\s*,/.exec(delivery.body)?.[1]).sort();
  expect(ids).toEqual(plants.map((plant) => plant.id).sort());
  expect(receiver.received.find((delivery) => delivery.body.includes("9223372036854775807"))?.body).toMatch(/"tag"\s*:\s*"edge ✿"\}\}$/);
  // The timestamp is the event's time, in RFC 3339.
  for (const delivery of receiver.received) expect(parseDeliveryBody(delivery.body).timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

it("retries after 500s and a time-out until the receiver answers 2xx, with the same webhook-id and body each time", async () => {
  const answers = [{ status: 500 }, { status: 200, hang: true }, { status: 503, body: "busy" }, { status: 200 }];
  receiver.script((delivery) => answers[delivery.repeat] ?? { status: 200 });
  expect(await post(`{"id":${nextPlant++},"name":"Persistent"}`)).toBe(200);
  await receiver.waitFor("4 attempts", () => receiver.received.length >= 4);
  await quiet(800);
  expect(receiver.received).toHaveLength(4);
  const [first] = receiver.received;
  for (const delivery of receiver.received) expect({ id: delivery.id, body: delivery.body }).toEqual({ id: first!.id, body: first!.body });
  // Each attempt is signed at its own time.
  const timestamps = receiver.received.map((delivery) => Number(delivery.timestamp));
  expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
  // The time-out: the next attempt was signed no sooner than the limit after the one that hung, by the app's
  // own clock (in whole seconds). The receiver's clock would say when this loaded process got to each.
  expect(timestamps[2]! - timestamps[1]!).toBeGreaterThanOrEqual(TIMEOUT_MS / 1000);
  await expect.poll(() => deliveryRows(app.database, endpoint.id)).toEqual([expect.objectContaining({ status: "delivered", attempts: 4, lastStatus: 200, lastError: null })]);
});

it("waits as long as the receiver's Retry-After asks", async () => {
  receiver.script((delivery) => (delivery.repeat === 0 ? { status: 503, headers: { "retry-after": "2" } } : { status: 200 }));
  expect(await post(`{"id":${nextPlant++},"name":"Patient"}`)).toBe(200);
  await receiver.waitFor("2 attempts", () => receiver.received.length >= 2);
  // No sooner than asked (the schedule alone would have waited 300 ms), by the app's own signing clock in
  // whole seconds; how much later is the machine's.
  const [first, second] = receiver.received.map((delivery) => Number(delivery.timestamp));
  expect(second! - first!).toBeGreaterThanOrEqual(2);
});

it("disables the endpoint when it answers 410 Gone, and sends it nothing more", async () => {
  receiver.script(() => ({ status: 410 }));
  expect(await post(`{"id":${nextPlant++},"name":"Unwanted"}`)).toBe(200);
  await receiver.waitFor("the attempt", () => receiver.received.length >= 1);
  await expect.poll(() => endpointRow(app.database, endpoint.id)).toMatchObject({ enabled: false, disabledReason: "the endpoint answered 410 Gone" });
  expect(await post(`{"id":${nextPlant++},"name":"Unsent"}`)).toBe(200);
  await quiet();
  expect(receiver.received).toHaveLength(1);
  expect(await deliveryRows(app.database, endpoint.id)).toEqual([expect.objectContaining({ status: "failed", attempts: 1, lastStatus: 410 })]);
});

it("signs with both secrets while a rotation overlaps, and with the new one alone after", async () => {
  await disableAllEndpoints(app.database);
  const rotating = await addWebhookEndpoint(app.database, { url: receiver.url, rotating: true });
  receiver.secrets = [rotating.secret, rotating.previousSecret!];
  expect(await post(`{"id":${nextPlant++},"name":"Both"}`)).toBe(200);
  await receiver.waitFor("the delivery", () => receiver.received.length >= 1);
  expect(receiver.received[0]!.verifiedWith).toEqual([true, true]);
  expect(receiver.received[0]!.signature.split(" ")).toHaveLength(2);

  await app.database.query("UPDATE webhook_endpoints SET previous_secret_expires_at = $1 WHERE id = $2", [sqlTime(app.database, new Date(Date.now() - 1_000)), rotating.id]);
  receiver.secrets = [rotating.secret];
  expect(await post(`{"id":${nextPlant++},"name":"New only"}`)).toBe(200);
  await receiver.waitFor("the second delivery", () => receiver.received.length >= 2);
  expect(receiver.received[1]!.signature.split(" ")).toHaveLength(1);
});

it("disables an endpoint that has been failing for 5 days at its next failure", async () => {
  receiver.script(() => ({ status: 500 }));
  await app.database.query("UPDATE webhook_endpoints SET failing_since = $1 WHERE id = $2", [sqlTime(app.database, new Date(Date.now() - 5 * 24 * 60 * 60 * 1000 - 60_000)), endpoint.id]);
  expect(await post(`{"id":${nextPlant++},"name":"Last straw"}`)).toBe(200);
  await expect.poll(() => endpointRow(app.database, endpoint.id)).toMatchObject({
    enabled: false,
    disabledReason: "deliveries to the endpoint failed for 5 days without one succeeding",
  });
  await quiet();
  // Its retry waits for an owner to enable the endpoint again.
  expect(receiver.received).toHaveLength(1);
  expect(await deliveryRows(app.database, endpoint.id)).toEqual([expect.objectContaining({ status: "pending", attempts: 1, lastStatus: 500 })]);
});

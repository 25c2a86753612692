import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";
import { addWebhookEndpoint, type TestEndpoint } from "@/test/support/webhook-endpoints";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";
import { startWorkerProcess, type WorkerProcess } from "@/test/support/worker-process";

// Several delivery workers on one PostgreSQL database: two app instances and
// a `npm run worker` process claim from the same deliveries at once, and
// still each event reaches each endpoint exactly once while the receivers
// answer 200.

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms" };

let database: TestDatabase;
let instances: AppServer[];
let worker: WorkerProcess;
let receivers: WebhookReceiver[];
let endpoints: TestEndpoint[];
let token: string;

beforeAll(async () => {
  database = await makeTestDatabase("postgresql");
  instances = await Promise.all([startApp({ database, env: ENV }), startApp({ database, env: ENV })]);
  worker = await startWorkerProcess(database, ENV);
  token = await createToken(database, ["plants:write"]);
  receivers = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
  endpoints = await Promise.all(receivers.map((receiver) => addWebhookEndpoint(database, { url: receiver.url })));
  for (const [index, receiver] of receivers.entries()) {
    receiver.secrets = [endpoints[index]!.secret];
    // Slow enough that the backlog lasts a while and every worker claims from it at once.
    receiver.script(() => ({ status: 200, delayMs: 60 }));
  }
});

afterAll(async () => {
  await worker?.kill("SIGKILL");
  await Promise.all(instances?.map((instance) => instance.stop()) ?? []);
  await Promise.all(receivers?.map((receiver) => receiver.close()) ?? []);
  await database?.drop();
});

async function call(instance: AppServer, method: string, path: string, body?: string): Promise<number> {
  const response = await fetch(`${instance.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
  await response.text();
  return response.status;
}

it("delivers each event exactly once to each endpoint, whichever worker claims it", async () => {
  const ids = Array.from({ length: 150 }, (_, index) => 5_000_000 + index);
  const created = await Promise.all(ids.map((id, index) => call(instances[index % 2]!, "POST", "/plants", `{"id":${id},"name":"Shared ${id}"}`)));
  expect(created.filter((status) => status !== 200)).toEqual([]);
  const deleted = await Promise.all(ids.slice(0, 30).map((id, index) => call(instances[(index + 1) % 2]!, "DELETE", `/plants/${id}`)));
  expect(deleted.filter((status) => status !== 204)).toEqual([]);

  const [{ count }] = (await database.query<{ count: bigint }>("SELECT count(*) AS count FROM webhook_events")) as [{ count: bigint }];
  expect(count).toBe(180n);
  for (const receiver of receivers) {
    await receiver.waitFor("180 deliveries", () => receiver.acknowledged().size === 180);
  }
  // Time for a duplicate to turn up, if one were coming.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  for (const receiver of receivers) {
    expect(receiver.received).toHaveLength(180);
    expect(receiver.unverified()).toEqual([]);
  }
  const rows = await database.query<{ status: string; attempts: number; count: bigint }>(
    "SELECT status, attempts, count(*) AS count FROM webhook_deliveries GROUP BY status, attempts",
  );
  expect(rows).toEqual([{ status: "delivered", attempts: 1, count: 360n }]);
  // Each worker did its share: the claims really met.
  const attempts = (output: string) => output.split("\n").filter((line) => line.includes('"message":"webhook attempt"')).length;
  const shares = [...instances.map((instance) => attempts(instance.output())), attempts(worker.output())];
  expect(shares.reduce((sum, share) => sum + share, 0)).toBe(360);
  expect(shares.filter((share) => share === 0)).toEqual([]);
});

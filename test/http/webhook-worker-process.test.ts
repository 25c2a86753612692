import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { inOrder, messagesInTimeOrder } from "@/test/support/log-order";
import { TESTS_SIGHUP } from "@/test/support/stop-signals";
import { addWebhookEndpoint, deliveryRows, type TestEndpoint } from "@/test/support/webhook-endpoints";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";
import { startWorkerProcess, type WorkerProcess } from "@/test/support/worker-process";

// `npm run worker`: the delivery worker apart from an app that runs none
// (WEBHOOK_WORKER=off). It sends what the app's writes made, and stops
// cleanly on SIGTERM.

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms" };

let app: AppServer;
let receiver: WebhookReceiver;
let endpoint: TestEndpoint;
let token: string;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  app = await startApp({ env: { ...ENV, WEBHOOK_WORKER: "off" } });
  token = await createToken(app.database, ["plants:write"]);
  endpoint = await addWebhookEndpoint(app.database, { url: receiver.url, events: ["plant.created"] });
  receiver.secrets = [endpoint.secret];
});

afterAll(async () => {
  await worker?.kill("SIGKILL");
  await app?.stop();
  await receiver?.close();
});

async function post(id: number): Promise<void> {
  const response = await fetch(`${app.url}/plants`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: `{"id":${id},"name":"Apart"}` });
  await response.text();
  expect(response.status).toBe(200);
}

it("sends nothing from an app with WEBHOOK_WORKER=off; the worker process sends it", async () => {
  await post(1);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(receiver.received).toEqual([]);
  expect(app.output()).not.toContain("webhook worker started");

  // At a stop signal it waits half its 30 s deadline for the hanging attempt below, then cuts it short and has the
  // other half to stop, many times what a loaded machine needs; the attempt's own limit cannot run out first.
  worker = await startWorkerProcess(app.database, { ...ENV, WEBHOOK_TIMEOUT_MS: "600000", SHUTDOWN_TIMEOUT_MS: "30000" });
  await receiver.waitFor("the delivery", () => receiver.acknowledged().size === 1);
  // What the app writes now reaches the worker at its next poll.
  await post(2);
  await receiver.waitFor("the second delivery", () => receiver.acknowledged().size === 2);
  expect(receiver.unverified()).toEqual([]);
});

// SIGHUP (a closed terminal) stops it as SIGTERM and SIGINT do: one listener for every stop signal (lib/server/stop-signals.ts),
// tested on the default engine (test/support/stop-signals.ts).
it.runIf(TESTS_SIGHUP)("on SIGHUP, gives back the delivery it was sending and exits 0", async () => {
  receiver.received.length = 0;
  receiver.script(() => ({ status: 200, hang: true }));
  await post(3);
  await receiver.waitFor("the attempt", () => receiver.received.length === 1);
  expect(await worker!.kill("SIGHUP")).toEqual({ code: 0, signal: null });
  const messages = messagesInTimeOrder(worker!.output());
  expect(inOrder(messages, ["shutting down", "webhook worker stopped", "shut down"]), messages.join("\n")).toBe(true);
  expect((await deliveryRows(app.database, endpoint.id)).filter((row) => row.status !== "delivered")).toEqual([
    expect.objectContaining({ status: "pending", attempts: 0, claimed: false }),
  ]);
});

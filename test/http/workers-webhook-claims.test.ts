import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { logLines, waitForLine } from "@/test/support/app-log";
import { send } from "@/test/support/worker-requests";
import { addWebhookEndpoint, deliveryRows, type TestEndpoint } from "@/test/support/webhook-endpoints";
import { parseDeliveryBody, startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

// Every worker of several runs the webhook delivery worker (issue 25): each
// wakes for what its own requests wrote and polls for the rest, so both look
// for the same due deliveries at once. A claim is one process's alone
// (lib/webhooks/delivery-claims.ts): each delivery is sent once, by one worker.

const PLANTS = 200;

let app: AppServer;
let token: string;
let receiver: WebhookReceiver;
let endpoint: TestEndpoint;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  app = await startApp({
    env: { WEB_CONCURRENCY: "2", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms" },
  });
  token = await createToken(app.database, ["plants:write"]);
  await waitForLine(app.output, (line) => line.message === "listening");
  endpoint = await addWebhookEndpoint(app.database, { url: receiver.url, events: ["plant.created"] });
  receiver.secrets = [endpoint.secret];
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

it(`sends each of ${PLANTS} deliveries once, each attempt by one worker, both workers sending`, async () => {
  // A receiver that takes a moment: attempts overlap, and both workers' claims with them.
  receiver.script(() => ({ status: 200, delayMs: 20 }));
  const ids = Array.from({ length: PLANTS }, (_, index) => index + 1);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  // New connections, eight at a time: the creates, and the wake-ups they bring, spread over both workers.
  const statuses: number[] = [];
  const queue = [...ids];
  const client = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      let answer = await send(`${app.url}/plants`, { method: "POST", headers, body: `{"id":${id},"name":"Announced"}` });
      // Busy (SQLite's lock waited for past its 5 s, as a machine loaded many times over may make it): again
      // after Retry-After, as docs/api.md asks of clients; the create is idempotent, and what is counted is deliveries.
      while (answer.status === 503) {
        await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(answer.headers["retry-after"] ?? 1)));
        answer = await send(`${app.url}/plants`, { method: "POST", headers, body: `{"id":${id},"name":"Announced"}` });
      }
      statuses.push(answer.status);
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  expect(statuses.filter((status) => status !== 200)).toEqual([]);

  await receiver.waitFor(`${PLANTS} deliveries`, () => receiver.acknowledged().size >= PLANTS);
  // Long enough for a second claim of any of them to have been sent (the retries are 300 ms apart).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(receiver.received.filter((delivery) => delivery.repeat > 0)).toEqual([]);
  expect(receiver.received).toHaveLength(PLANTS);
  expect(receiver.unverified()).toEqual([]);
  expect(receiver.received.map((delivery) => Number(parseDeliveryBody(delivery.body).data.id)).sort((a, b) => a - b)).toEqual(ids);

  const attempts = logLines(app.output()).filter((line) => line.message.startsWith("webhook attempt"));
  expect(attempts.filter((line) => line.message !== "webhook attempt")).toEqual([]);
  expect(new Set(attempts.map((line) => line.deliveryId)).size).toBe(PLANTS);
  expect(attempts).toHaveLength(PLANTS);
  const byWorker = [0, 1].map((worker) => attempts.filter((line) => line.worker === worker).length);
  expect(byWorker[0]! + byWorker[1]!).toBe(PLANTS);
  expect(Math.min(...byWorker)).toBeGreaterThan(0);
  expect((await deliveryRows(app.database, endpoint.id)).map((row) => `${row.status} ${row.attempts}`)).toEqual(Array(PLANTS).fill("delivered 1"));
});

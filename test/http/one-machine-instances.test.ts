import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, freePort, startApp } from "@/test/support/app-server";

// Two instances on one machine (issue 20): each needs its own PORT and its
// own METRICS_PORT. A second one started with the first one's ports stops at
// start, with a message naming the variable to change, and the first serves on.

let metricsPort: number;
let first: AppServer;

beforeAll(async () => {
  metricsPort = await freePort();
  first = await startApp({ env: { METRICS_PORT: String(metricsPort) } });
});

afterAll(async () => {
  await first?.stop();
});

it("a second instance on the first one's METRICS_PORT stops at start, naming METRICS_PORT, and the first is still scraped", async () => {
  const second = startApp({ env: { METRICS_PORT: String(metricsPort) } });
  await expect(second).rejects.toThrow(/the app exited with 1/);
  await expect(second).rejects.toThrow(
    `plant-store: METRICS_PORT: 127.0.0.1:${metricsPort} is in use, by another program or another instance of this app; ` +
      "give each instance on a machine its own METRICS_PORT, or set METRICS_PORT=off",
  );

  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain("plant_store_http_requests_total");
});

it("a second instance on the first one's PORT stops at start, naming PORT", async () => {
  const second = startApp({ env: { PORT: String(first.port) } });
  await expect(second).rejects.toThrow(/the app exited with 1/);
  await expect(second).rejects.toThrow(
    `plant-store: PORT: 127.0.0.1:${first.port} is in use, by another program or another instance of this app; give each instance on a machine its own PORT`,
  );
  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
});

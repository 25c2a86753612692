import { type Browser, chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "@/test/support/chromium";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";
import { sharedApp } from "@/test/support/shared-app";

// /docs in a real browser: the reference renders every operation from
// /openapi.json, and nothing is fetched from anywhere but the app (it works
// offline). Playwright cannot download its own browser here, so this drives
// the system Chromium that .ci/run installs. The page does not depend on the
// data: it runs against the app the HTTP files share.

const app = sharedApp();
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath() });
});

afterAll(async () => {
  await browser?.close();
});

describe("the API reference at /docs", () => {
  it("renders every operation and its schemas from the app alone", async () => {
    const page = await browser.newPage();
    // Playwright's own 30 s for a navigation or a wait is a speed check; the hang guard is minutes (issue 31).
    page.setDefaultTimeout(HANG_GUARD_MS);
    const elsewhere: string[] = [];
    const errors: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(app.url) && !request.url().startsWith("data:")) elsewhere.push(request.url());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${app.url}/docs`);
    const operations = page.locator(".opblock-summary");
    await operations.first().waitFor();
    // The eight operations, then the four webhook events (OpenAPI 3.1 webhooks), each a POST to the receiver.
    expect(await page.locator(".opblock-summary-method").allTextContents()).toEqual(["GET", "POST", "POST", "GET", "PATCH", "DELETE", "GET", "GET", "POST", "POST", "POST", "POST"]);
    expect(await page.locator(".opblock-summary-path").allTextContents()).toEqual([
      "/plants",
      "/plants",
      "/plants/batch",
      "/plants/{id}",
      "/plants/{id}",
      "/plants/{id}",
      "/plants/{id}/history",
      "/plants/events",
      "plant.created",
      "plant.updated",
      "plant.deleted",
      "webhook.test",
    ]);
    // Expanding an operation resolves its references (this is what breaks when Swagger UI is mis-bundled).
    await operations.nth(1).click();
    const statuses = page.locator(".responses-table tbody .response-col_status");
    await statuses.first().waitFor();
    expect((await statuses.allTextContents()).map((status) => status.trim())).toEqual(["200", "400", "401", "403", "409", "413", "415", "429", "500", "503"]);
    await expect.poll(() => page.locator("section.models").textContent()).toMatch(/Plant.*NewPlant.*Error/s);
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});

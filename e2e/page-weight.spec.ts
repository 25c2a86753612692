import { startApp } from "../test/support/app-server";
import { PAGE_SCRIPT_BUDGET, type ScriptWeight, weighPageScripts } from "../test/support/script-weight";
import { expect, SIGNED_OUT, test } from "./fixtures";

// Lighter pages (issue 20, point 9): the staff pages are used on shop tablets
// and phones over shop Wi-Fi, so each loads at most 180 kB of gzipped script
// on a first visit, and nothing more until it is used: a form's checks,
// saving, signing out and the offline queue load when they are needed
// (test/support/script-weight.ts says what counts; npm run bench:page-weight
// prints the figures). Sign-in and setup too, signed out: sign-in opens every
// session on the shop tablets.

/** Every page within the budget, and none fetching script unasked after it loaded. */
function expectLight(weights: Record<string, ScriptWeight>): void {
  const kB = Object.fromEntries(Object.entries(weights).map(([path, { gzip }]) => [path, Math.round(gzip / 1024)]));
  const over = Object.keys(weights).filter((path) => weights[path]!.gzip > PAGE_SCRIPT_BUDGET);
  expect(over, `pages over ${PAGE_SCRIPT_BUDGET / 1024} kB of gzipped script (kB: ${JSON.stringify(kB)})`).toEqual([]);
  const later = Object.keys(weights).filter((path) => weights[path]!.laterGzip > 0);
  expect(later, "pages that fetched more script by themselves after they loaded").toEqual([]);
}

test("every staff page loads at most 180 kB of gzipped script on a first visit, and nothing more by itself", async ({ browser, database, ownerState, page, store }) => {
  const plant = await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: { id: 7_630_001, name: "Weighed fern" } });
  expect(plant.status()).toBe(200);
  const endpoint = await store.createWebhook({ url: "http://127.0.0.1:9/page-weight", events: ["plant.created"] });

  const weights: Record<string, ScriptWeight> = {};
  for (const path of ["/", "/plants/new", "/plants/7630001", "/import", "/tokens", "/webhooks", `/webhooks/${endpoint}`, "/team", "/account"]) {
    // Signed in, with an empty cache: a first visit, or the first after a new build.
    const context = await browser.newContext({ storageState: ownerState });
    weights[path] = await weighPageScripts(await context.newPage(), `${database.baseURL}${path}`);
    await context.close();
  }
  expectLight(weights);
});

test("sign-in, setup and an invitation's page load at most 180 kB of gzipped script signed out, and nothing more by themselves", async ({ browser, database, store }) => {
  // /setup is there only while the database has no account (then it answers 404), and this run's owner is
  // made before any spec: it is weighed on an app of its own, on an empty database.
  const empty = await startApp();
  const weights: Record<string, ScriptWeight> = {};
  try {
    // An invitation's page is where a new member's first visit lands (the reset page shares its components).
    const join = `${database.baseURL}${await store.invitationPath(`weighed-${Date.now()}@plants.example`, "staff")}`;
    for (const url of [`${empty.url}/setup`, `${database.baseURL}/sign-in`, join]) {
      const context = await browser.newContext({ storageState: SIGNED_OUT });
      // Named by page, not by path: a link's path holds its secret.
      weights[url === join ? "/join/<secret>" : new URL(url).pathname] = await weighPageScripts(await context.newPage(), url);
      await context.close();
    }
  } finally {
    await empty.stop();
  }
  expectLight(weights);
});

test("a form whose checks cannot be loaded says so, and checks once they can", async ({ page, context }) => {
  await page.goto("/tokens", { waitUntil: "networkidle" });
  // The connection drops after the page loaded: the form's checks, loaded on demand, cannot be fetched.
  await context.setOffline(true);
  await page.getByLabel("Label").fill("checks on demand");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("The form could not be checked: the server could not be reached. Check your connection and try again.")).toBeVisible();

  await context.setOffline(false);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New API token")).toBeVisible();
  await expect(page.getByText("The form could not be checked")).toHaveCount(0);
});

import type { BrowserContext, Page } from "@playwright/test";
import { desktopChromiumPath } from "../test/support/chromium";
import { expect, expectNoAxeViolations, OWNER, signIn, test } from "./fixtures";

// Add a plant without a network, in Chromium with the app's service worker.
//
// Offline means offline for the service worker too: context.setOffline()
// reaches a worker's own requests in this Playwright (1.65; it did not in
// older ones: playwright#2311), and a route that aborts every request to the
// app is added as well; each test checks that the worker cannot reach the
// server. Coming back online, the page sends on its `online` event; with
// every page closed, Chromium wakes the worker with a Background Sync event
// (it does here, now that the worker was offline too).

// Background Sync is the desktop browser's: the headless shell the other specs
// run in never fires it, so this file runs in the whole of Chromium; and with the service worker, which
// the other specs block (playwright.config.ts).
test.use({ launchOptions: { executablePath: desktopChromiumPath() }, serviceWorkers: "allow" });

const APP = "**/*";

async function visitAndKeepOffline(page: Page): Promise<void> {
  await page.goto("/plants/new");
  await expect(page.getByRole("heading", { name: "Add a plant" })).toBeVisible();
  // The worker is active and has kept the page: from now on it loads without a network.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(async () => (await caches.match("/plants/new", { ignoreVary: true })) !== undefined)).toBe(true);
}

async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route(APP, (route) => route.abort("internetdisconnected"));
  const [worker] = context.serviceWorkers();
  expect(worker, "the app's service worker").toBeDefined();
  expect(await worker!.evaluate(() => fetch("/healthz").then(() => "reached the server", () => "cut off"))).toBe("cut off");
}

async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute(APP);
  await context.setOffline(false);
}

async function addPlant(page: Page, plant: { id: string; name: string; tag?: string }): Promise<void> {
  await page.getByLabel("Id").fill(plant.id);
  await page.getByLabel("Name").fill(plant.name);
  await page.getByLabel("Tag (optional)").fill(plant.tag ?? "");
  await page.getByLabel("Tag (optional)").press("Enter");
}

async function storedRows(sql: (statement: string, params?: unknown[]) => Promise<Record<string, unknown>[]>, ids: string[]) {
  const rows = await sql(`SELECT id, name, tag FROM plants WHERE id IN (${ids.join(", ")}) ORDER BY id`);
  return rows.map((row) => ({ id: String(row.id), name: row.name, tag: row.tag ?? null }));
}

const waitingList = (page: Page) => page.getByRole("region", { name: /Waiting to send/ });

test("pages name the web app manifest and the icon, which load under the page's CSP", async ({ page }) => {
  await page.goto("/plants/new");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  const icon = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(icon).toMatch(/^\/icon\.svg/);
  // Fetched by the page itself, so its CSP (connect-src, manifest-src) and the proxy's matcher both apply.
  const loaded = await page.evaluate(async (iconHref) => {
    const manifest = (await (await fetch("/manifest.webmanifest")).json()) as { start_url: string; icons: { src: string }[] };
    const image = await fetch(iconHref!);
    return { start: manifest.start_url, icons: manifest.icons.map((each) => each.src), icon: [image.status, image.headers.get("content-type")] };
  }, icon);
  expect(loaded).toEqual({ start: "/plants/new", icons: ["/icon.svg"], icon: [200, "image/svg+xml"] });
});

test("plants added offline wait in the browser, survive a reload, and are stored once each when the connection returns", async ({ page, context, sql }) => {
  await visitAndKeepOffline(page);
  // The id the store offers (one more than its largest); other specs may have stored larger ones than these.
  const offered = BigInt(await page.getByLabel("Id").inputValue());
  const nextOffered = String(offered > 880_004n ? offered : 880_004n);
  await goOffline(context);
  await expect(page.getByText("You are offline.", { exact: false })).toBeVisible();

  const plants = [
    { id: "880001", name: "Offline fern", tag: "fern" },
    { id: "880002", name: "Offline ivy" },
    { id: "880003", name: "Offline moss", tag: "ground" },
  ];
  for (const plant of plants) {
    await addPlant(page, plant);
    await expect(page.getByRole("status")).toContainText(`No connection: ${plant.name}`);
    await expect(page.getByLabel("Id")).toBeFocused();
  }
  await expect(waitingList(page).getByRole("heading")).toHaveText("Waiting to send (3)");
  await expect(waitingList(page).getByRole("listitem")).toHaveText([/Offline fern \(fern\), id 880001/, /Offline ivy, id 880002/, /Offline moss \(ground\), id 880003/]);
  // The next id offered follows the waiting plants.
  await expect(page.getByLabel("Id")).toHaveValue(nextOffered);

  // Reloaded without a network: the page comes from the worker, the waiting plants from IndexedDB.
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { name: "Add a plant" })).toBeVisible();
  await expect(waitingList(page).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByLabel("Id")).toHaveValue(nextOffered);
  await expectNoAxeViolations(page);
  expect(await storedRows(sql, plants.map((plant) => plant.id))).toEqual([]);

  // One of them reached the server before, but its answer was lost on the way back (the server has it,
  // the browser does not know): sent again, it comes back as already stored, which counts as sent.
  const lost = await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: { id: 880002, name: "Offline ivy" } });
  expect(lost.status()).toBe(200);

  // The connection returns: the page sends them (on `online`), and so may the worker (Background Sync),
  // one after the other; each plant is stored once.
  await goOnline(context);
  await expect(waitingList(page)).toHaveCount(0);
  await expect(page.locator(".sending-news")).toHaveText(/Sent [1-3] waiting plants?\./);
  expect(await storedRows(sql, plants.map((plant) => plant.id))).toEqual(plants.map(({ id, name, tag }) => ({ id, name, tag: tag ?? null })));
  // Sending again finds nothing to send.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Add a plant" })).toBeVisible();
  await expect(waitingList(page)).toHaveCount(0);
  expect(await storedRows(sql, plants.map((plant) => plant.id))).toHaveLength(3);

  // Signing out forgets the kept page: the next person at this browser does not get this one's.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("plant-store-")))).toEqual([]);
});

test("a waiting plant whose id was taken meanwhile keeps the app's 409, to be changed and sent again, or discarded", async ({ page, context, sql }) => {
  await visitAndKeepOffline(page);
  await goOffline(context);
  await addPlant(page, { id: "880100", name: "Ficus elastica" });
  await addPlant(page, { id: "880200", name: "Strelitzia" });
  await expect(waitingList(page).getByRole("listitem")).toHaveCount(2);

  // Someone else stores other plants under both ids meanwhile.
  for (const [id, name] of [
    ["880100", "Ficus lyrata"],
    ["880200", "Strelitzia nicolai"],
  ]) {
    const taken = await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: { id: Number(id), name } });
    expect(taken.status()).toBe(200);
  }

  await goOnline(context);
  const ficus = waitingList(page).getByRole("listitem").filter({ hasText: "id 880100" });
  await expect(ficus).toContainText("Not stored: A plant with id 880100 already exists with different data; choose another id.");
  await expect(waitingList(page).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("The app refused 2 waiting plants: see below.")).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the waiting list fits at 375px").toBe(true);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Still refused after a reload: it waits for the person, not for the network.
  await page.reload();
  await expect(ficus).toContainText("already exists with different data");

  // Changed: the form holds it, with the app's reason on the id, which has the focus.
  await ficus.getByRole("button", { name: "Change" }).click();
  const id = page.getByLabel("Id");
  await expect(id).toHaveValue("880100");
  await expect(page.getByLabel("Name")).toHaveValue("Ficus elastica");
  await expect(id).toBeFocused();
  await expect(id).toHaveAccessibleDescription(/A plant with id 880100 already exists with different data; choose another id\./);
  await id.fill("880150");
  await page.getByRole("button", { name: "Send again" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved Ficus elastica with id 880150.");
  await expect(page.getByRole("button", { name: "Add plant" })).toBeVisible();
  await expect(id).toBeFocused();

  // Discarded: gone from the browser; what the other person stored stays.
  const strelitzia = waitingList(page).getByRole("listitem").filter({ hasText: "id 880200" });
  await strelitzia.getByRole("button", { name: "Discard" }).click();
  await expect(waitingList(page)).toHaveCount(0);
  await expect(page.getByText("Discarded Strelitzia, id 880200.")).toBeVisible();
  expect(await storedRows(sql, ["880100", "880150", "880200"])).toEqual([
    { id: "880100", name: "Ficus lyrata", tag: null },
    { id: "880150", name: "Ficus elastica", tag: null },
    { id: "880200", name: "Strelitzia nicolai", tag: null },
  ]);
});

test("an ended session keeps the plant and asks to sign in again; once signed in, it is sent", async ({ page, context, sql }) => {
  await visitAndKeepOffline(page);
  await context.clearCookies();

  // The form's own request meets the 401: the plant is kept, not lost.
  await addPlant(page, { id: "880300", name: "Calathea", tag: "prayer plant" });
  const status = page.getByRole("status");
  await expect(status).toHaveText("Your session has ended: Calathea (prayer plant) with id 880300 is kept in this browser. Sign in again, and it will be sent.");
  // Sending again meets it too, and says so where the plants wait.
  await waitingList(page).getByRole("button", { name: "Send now" }).click();
  await expect(waitingList(page)).toContainText("Your session has ended, so these plants were not sent.");
  expect(await storedRows(sql, ["880300"])).toEqual([]);

  await status.getByRole("link", { name: "Sign in again" }).click();
  await signIn(page, OWNER.email, OWNER.password);
  await expect(page).toHaveURL(/\/plants\/new$/);
  await expect(page.getByText("Sent 1 waiting plant.")).toBeVisible();
  await expect(waitingList(page)).toHaveCount(0);
  expect(await storedRows(sql, ["880300"])).toEqual([{ id: "880300", name: "Calathea", tag: "prayer plant" }]);
});

test("with every page of the app closed, the service worker sends the waiting plants on Background Sync when the connection returns", async ({ page, context, sql }) => {
  await visitAndKeepOffline(page);
  await goOffline(context);
  await addPlant(page, { id: "880400", name: "Peperomia" });
  // Said once the plant is kept and the sync asked for.
  await expect(page.getByRole("status")).toContainText("No connection: Peperomia");

  // No page of the app is left to send it: only the worker can, woken by the browser.
  await context.newPage();
  await page.close();
  await goOnline(context);
  await expect.poll(() => storedRows(sql, ["880400"])).toEqual([{ id: "880400", name: "Peperomia", tag: null }]);
});

test("the message about a plant kept offline follows it: once sent it says saved, once refused it says not stored", async ({ page, context }) => {
  await visitAndKeepOffline(page);
  const status = page.getByRole("status");

  // Sent when the connection returns: the form's message says so, not that it waits for the connection.
  await goOffline(context);
  await addPlant(page, { id: "880500", name: "Kept fern", tag: "fern" });
  await expect(status).toHaveText("No connection: Kept fern (fern) with id 880500 is kept in this browser, and will be sent when the connection returns.");
  await goOnline(context);
  await expect(page.locator(".sending-news")).toHaveText(/Sent 1 waiting plant\./);
  await expect(status).toHaveText("Saved Kept fern (fern) with id 880500.");
  await expect(status.getByRole("link", { name: "Kept fern" })).toHaveAttribute("href", "/plants/880500");

  // Refused when sent (someone took its id meanwhile): the message says it was not stored, where the list says why.
  await goOffline(context);
  await addPlant(page, { id: "880600", name: "Taken ivy" });
  await expect(status).toContainText("No connection: Taken ivy");
  const taken = await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: { id: 880600, name: "Someone else's ivy" } });
  expect(taken.status()).toBe(200);
  await goOnline(context);
  await expect(waitingList(page).getByRole("listitem").filter({ hasText: "id 880600" })).toContainText("Not stored:");
  await expect(status).toHaveText("Not stored: the app refused Taken ivy with id 880600 when it was sent. It waits below, to be changed or discarded.");

  // Discarded: no message is left about it.
  await waitingList(page).getByRole("listitem").filter({ hasText: "id 880600" }).getByRole("button", { name: "Discard" }).click();
  await expect(page.getByText("Discarded Taken ivy, id 880600.")).toBeVisible();
  await expect(status).toHaveText("");
});

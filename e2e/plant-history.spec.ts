import { randomBytes } from "node:crypto";
import type { Browser, Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, OWNER, SIGNED_OUT, signIn, test } from "./fixtures";
import { addPlants, patchAsSomeoneElse, writeToken } from "./plants";

// A plant's history on its page (issue 22): who changed it, when, and from
// what to what, newest first and a page at a time; the owner is led from a
// name to that person's activity, staff are not (they cannot open it); a
// deleted plant's page says when and by whom. Ids beyond 2^53, the plants'
// (below -2^53: a stored id above every other would change the next id the
// add form offers, which plant-form.spec.ts checks in the same lane) and the
// records' (above 2^53) alike.

const PASSWORD = "moss lantern quarry 58";
const BASE = -9_007_199_254_740_993n - 7_722_000n;

/** A fresh suffix, so that no email or name meets one from another test or run. */
const unique = () => randomBytes(4).toString("hex");

async function signedIn(browser: Browser, baseURL: string, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL, storageState: SIGNED_OUT })).newPage();
  await page.goto("/sign-in");
  await signIn(page, email, password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  return page;
}

const history = (page: Page) => page.getByRole("table", { name: "History" });
/** The history's changes, newest first (the first row is the headers'). */
const changes = (page: Page) => history(page).getByRole("rowgroup").nth(1).getByRole("row");
/** A change's Who, What and Values, as read out (the cards' labels are not: the column headers name the cells). */
const cells = (row: Locator) => row.getByRole("cell");

async function save(page: Page, field: "Name" | "Tag (optional)", value: string): Promise<void> {
  await page.getByLabel(field).fill(value);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
}

test("two people edit a plant through its page: its history shows both, newest first, by name, old → new", async ({ page, browser, baseURL, createAccount, sql }) => {
  const id = BASE + 1n;
  const clerk = { email: `fern-${unique()}@plants.example`, name: `Fern Clerk ${unique()}`, role: "staff" as const, password: PASSWORD };
  await createAccount(clerk);
  const [{ id: clerkId }] = (await sql("SELECT id FROM users WHERE email = $1", [clerk.email])) as [{ id: string }];
  const [{ id: ownerId }] = (await sql("SELECT id FROM users WHERE email = $1", [OWNER.email])) as [{ id: string }];
  await addPlants(page, [{ id, name: "Monstera", tag: "aroid" }]);

  await page.goto(`/plants/${id}`);
  await expect(changes(page)).toHaveCount(1);
  await expect(cells(changes(page).first()).nth(1)).toHaveAccessibleName("created");
  await expect(cells(changes(page).first()).nth(2)).toHaveAccessibleName("Name: Monstera Tag: aroid");
  // The owner's save: the page's history shows it at once, on top.
  await save(page, "Name", "Monstera deliciosa");
  await expect(changes(page)).toHaveCount(2);
  await expect(cells(changes(page).first()).nth(0)).toHaveAccessibleName(/^Olive Owner/);
  await expect(cells(changes(page).first()).nth(2)).toHaveAccessibleName("Name: from Monstera to Monstera deliciosa");

  // The clerk's save, on the same plant, from their own browser.
  const clerkPage = await signedIn(browser, baseURL!, clerk.email, clerk.password);
  await clerkPage.goto(`/plants/${id}`);
  await save(clerkPage, "Tag (optional)", "");
  await expect(changes(clerkPage)).toHaveCount(3);
  const [clerkChange, ownerChange, created] = [0, 1, 2].map((index) => changes(clerkPage).nth(index));
  await expect(cells(clerkChange!).nth(0)).toHaveAccessibleName(clerk.name);
  await expect(cells(clerkChange!).nth(1)).toHaveAccessibleName("changed");
  await expect(cells(clerkChange!).nth(2)).toHaveAccessibleName("Tag: from aroid to no tag");
  // Seen as an arrow, read as "from … to".
  await expect(cells(clerkChange!).nth(2).getByRole("listitem")).toHaveText(/^Tag:\s*(from)?\s*aroid\s*→\s*(to)?\s*no tag$/);
  await expect(cells(ownerChange!).nth(0)).toHaveAccessibleName(OWNER.name);
  await expect(cells(ownerChange!).nth(2)).toHaveAccessibleName("Name: from Monstera to Monstera deliciosa");
  await expect(cells(created!).nth(1)).toHaveAccessibleName("created");
  // Staff cannot open the Activity page: names, not links.
  await expect(history(clerkPage).getByRole("link")).toHaveCount(0);
  await clerkPage.context().close();

  // The owner sees the clerk's change too, each name leading to that person's activity.
  await page.reload();
  await expect(changes(page)).toHaveCount(3);
  await expect(cells(changes(page).nth(0)).nth(0).getByRole("link", { name: `${clerk.name}’s activity` })).toHaveAttribute("href", `/activity?person=${clerkId}`);
  await expect(cells(changes(page).nth(1)).nth(0).getByRole("link", { name: `${OWNER.name}’s activity` })).toHaveAttribute("href", `/activity?person=${ownerId}`);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(history(page)).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${width} px`).toBe(true);
  }
});

test("a long history is paged, 20 changes at a time, by record ids above 2^53", async ({ page, request, database, sql, store }) => {
  const id = BASE + 2n;
  // The records' ids go past 2^53 from here on, as a store that has recorded that much would have them.
  const past = "9007199254740993";
  if (database.provider === "sqlite") await sql("UPDATE sqlite_sequence SET seq = max(seq, $1) WHERE name = 'activity'", [past]);
  else await sql(`SELECT setval(pg_get_serial_sequence('"activity"', 'id'), greatest((SELECT max(id) FROM activity), $1::bigint))`, [past]);
  const token = await writeToken(store);
  await addPlants(page, [{ id, name: "v0" }]);
  for (let n = 1; n <= 21; n++) await patchAsSomeoneElse(request, token, id, `{"name":"v${n}"}`);

  await page.goto(`/plants/${id}`);
  await expect(changes(page)).toHaveCount(20);
  await expect(cells(changes(page).first()).nth(0)).toHaveAccessibleName("API token “e2e plants”");
  await expect(cells(changes(page).first()).nth(2)).toHaveAccessibleName("Name: from v20 to v21");
  await expect(cells(changes(page).last()).nth(2)).toHaveAccessibleName("Name: from v1 to v2");

  const older = page.getByRole("navigation", { name: "History pages" }).getByRole("link", { name: "Older changes" });
  const href = await older.getAttribute("href");
  expect(href).toMatch(new RegExp(`^/plants/${id}\\?historyBefore=\\d{16,}#plant-history$`));
  // The API's history names the same record exactly: the page continues before the 20th.
  const api = await page.request.get(`/plants/${id}/history?limit=20`, { headers: { "sec-fetch-site": "same-origin" } });
  expect(api.status(), await api.text()).toBe(200);
  expect(api.headers()["link"]).toContain(`before=${/historyBefore=(\d+)/.exec(href!)![1]}`);

  // A slow connection: the older page's payload takes seconds to come. Watched from inside the page, at
  // every change to it and every frame, its address and its rows never disagree: the newest 20 under
  // the older page's address would be one page's rows under another's (issue 31).
  await page.route(/historyBefore=/, async (route) => {
    if (route.request().resourceType() !== "document" && !route.request().headers()["next-router-prefetch"]) await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await page.evaluate(() => {
    const seen: string[] = [];
    const check = () => {
      const rows = document.querySelectorAll("#plant-history tbody tr").length;
      if (location.search.includes("historyBefore") && rows === 20) seen.push(`${location.href} with ${rows} rows`);
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    const everyFrame = () => (check(), requestAnimationFrame(everyFrame));
    everyFrame();
    Object.assign(window, { historyMismatches: seen });
  });
  await older.click();
  await expect(page).toHaveURL(new RegExp(`/plants/${id}\\?historyBefore=\\d+#plant-history$`));
  await expect(changes(page)).toHaveCount(2);
  expect(await page.evaluate(() => (window as unknown as { historyMismatches: string[] }).historyMismatches)).toEqual([]);
  await page.unroute(/historyBefore=/);
  await expect(cells(changes(page).first()).nth(2)).toHaveAccessibleName("Name: from v0 to v1");
  await expect(cells(changes(page).last()).nth(1)).toHaveAccessibleName("created");
  await expect(page.getByRole("link", { name: "Older changes" })).toHaveCount(0);
  // A full load of the older page's URL shows the same page (the proxy keeps the query).
  await page.reload();
  await expect(changes(page)).toHaveCount(2);
  await page.getByRole("link", { name: "Newest changes" }).click();
  await expect(changes(page)).toHaveCount(20);
});

test("a deleted plant's page says when and by whom, shows its history, and lets an owner restore it", async ({ page }) => {
  const id = BASE + 3n;
  await addPlants(page, [{ id, name: "Calathea", tag: "prayer plant" }]);
  await page.goto(`/plants/${id}`);
  await save(page, "Name", "Calathea orbifolia");
  await page.getByRole("button", { name: "Delete plant" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  const response = await page.goto(`/plants/${id}`);
  expect(response!.status()).toBe(200);
  await expect(page).toHaveTitle("Calathea orbifolia (deleted) · Plant Store");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Calathea orbifolia (deleted)");
  const notice = page.getByText("This plant was deleted on");
  await expect(notice.getByRole("link", { name: `${OWNER.name}’s activity` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete plant" })).toHaveCount(0);
  await expect(changes(page)).toHaveCount(3);
  await expect(cells(changes(page).first()).nth(1)).toHaveAccessibleName("deleted");
  // The plant as it was when deleted.
  await expect(cells(changes(page).first()).nth(2)).toHaveAccessibleName("Name: Calathea orbifolia Tag: prayer plant");
  await expectNoAxeViolations(page);

  // An owner restores it from here: the page becomes the plant's own again (its new title announced), as it
  // was, with the restore on top of its history; its status region says so and its heading takes the focus
  // from the Restore button, gone with the deleted page (issue 44).
  await page.getByRole("button", { name: `Restore Calathea orbifolia (id ${id})` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored" })).toHaveText("Restored: Calathea orbifolia is among the plants again.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Calathea orbifolia");
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page).toHaveTitle("Calathea orbifolia · Plant Store");
  await expect(page.getByRole("button", { name: "Delete plant" })).toBeVisible();
  await expect(changes(page)).toHaveCount(4);
  await expect(cells(changes(page).first()).nth(1)).toHaveAccessibleName("restored");
  await expect(cells(changes(page).first()).nth(2)).toHaveAccessibleName("Name: Calathea orbifolia Tag: prayer plant");
});

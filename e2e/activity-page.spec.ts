import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, OWNER, SIGNED_OUT, test } from "./fixtures";
import { addPlants, type NewPlant } from "./plants";

// The owners' Activity page (issue 22): every record, newest first, found by
// its filters in the URL; a deleted plant restored from its record exactly as
// it was; its CSV; and no such page for staff who are not owners. Plant ids
// below -2^53, so that a number rounded anywhere on the way shows (not above
// 2^53: an id above every other would change the next id the add form offers,
// which plant-form.spec.ts checks in the same lane).

const BASE = -9_007_199_254_740_993n - 7_220_000n;

/** A fresh suffix, so that no email or name meets one from another test or run. */
const unique = () => randomBytes(4).toString("hex");

const SAME_ORIGIN = { "sec-fetch-site": "same-origin" };

function navLink(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

/** The rows whose What says `what` ("Deleted", "Restored"). */
function recordRows(page: Page, what: string) {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name: what, exact: true }) });
}

/** Stores the plant and deletes it, as the staff pages do (the signed-in owner's session, from this app's own pages). */
async function storedAndDeleted(page: Page, plant: NewPlant): Promise<void> {
  await addPlants(page, [plant]);
  const deleted = await page.request.delete(`/plants/${plant.id}`, { headers: SAME_ORIGIN });
  expect(deleted.status(), await deleted.text()).toBe(204);
}

test("an owner finds a deleted plant in Activity by its id, and restores it as it was", async ({ page }) => {
  const plant = { id: BASE + 1n, name: "Monstera deliciosa 'Thai Constellation'", tag: "aroid" };
  await storedAndDeleted(page, plant);

  await page.goto("/");
  await navLink(page, "Activity").click();
  await expect(page).toHaveTitle("Activity · Plant Store");
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await expect(navLink(page, "Activity")).toHaveAttribute("aria-current", "page");

  await page.getByLabel("Plant id").fill(String(plant.id));
  await page.getByRole("button", { name: "Show records" }).click();
  await expect(page).toHaveURL(`/activity?plant=${plant.id}`);
  await expect(page.getByRole("status").filter({ hasText: "records" })).toHaveText("2 records matching these filters, newest first.");
  const table = page.getByRole("table", { name: "Activity, newest first" });
  await expect(table.getByRole("row")).toHaveCount(3);
  const deleted = recordRows(page, "Deleted");
  await expect(deleted).toContainText(OWNER.name);
  await expect(deleted).toContainText(`Plant ${plant.id}`);
  await expect(deleted).toContainText("As it was:");
  await expect(deleted.getByRole("listitem")).toHaveText([`Id: ${plant.id}`, `Name: ${plant.name}`, "Tag: aroid"]);
  await expect(recordRows(page, "Created")).toContainText(`Name: ${plant.name}`);

  await deleted.getByRole("button", { name: `Restore ${plant.name} (id ${plant.id})` }).click();
  const restored = page.getByRole("status").filter({ hasText: "Restored" });
  await expect(restored).toContainText(`Restored ${plant.name} (id ${plant.id}), as it was.`);
  await expect(restored).toBeFocused();
  // The restore is a record of its own, newest; the delete's record can no longer be restored.
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table.getByRole("row").nth(1)).toContainText("Restored");
  await expect(table.getByRole("row").nth(1)).toContainText(`Name: ${plant.name}`);
  await page.reload();
  await expect(recordRows(page, "Deleted").getByRole("button", { name: /^Restore/ })).toHaveCount(0);
  await expect(recordRows(page, "Deleted")).toContainText("Its id is in use again");

  await recordRows(page, "Restored").getByRole("link", { name: `Plant ${plant.id}` }).click();
  await expect(page.getByRole("heading", { name: plant.name, level: 1 })).toBeVisible();
  await expect(page.locator(".plant-facts")).toContainText(`Id${plant.id}`);
  await expect(page.locator(".plant-facts")).toContainText("Tagaroid");
  const api = await page.request.get(`/plants/${plant.id}`, { headers: SAME_ORIGIN });
  expect(await api.text()).toBe(`{"id":${plant.id},"name":${JSON.stringify(plant.name)},"tag":"aroid"}`);
});

test("a second restore of the same delete, from a page loaded before the first, says the id is taken and changes nothing", async ({ page, context }) => {
  const plant = { id: BASE + 2n, name: "Calathea orbifolia" };
  await storedAndDeleted(page, plant);
  const other = await context.newPage();
  for (const opened of [page, other]) await opened.goto(`/activity?plant=${plant.id}`);

  await other.getByRole("button", { name: `Restore ${plant.name} (id ${plant.id})` }).click();
  await expect(other.getByRole("status").filter({ hasText: "Restored" })).toBeFocused();

  await page.getByRole("button", { name: `Restore ${plant.name} (id ${plant.id})` }).click();
  const refusal = `Plant ${plant.id} was not restored: its id has been taken by a plant stored since it was deleted. Nothing was changed.`;
  // Read out as it appears (role="alert"), beside the button that was pressed.
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toHaveText(refusal);
  await page.reload();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(4);
  await expect(recordRows(page, "Restored")).toHaveCount(1);
});

test("filters are in the URL: the person and kind of change, a page before a record, and the CSV of the same filters", async ({ page }) => {
  const plants = [
    { id: BASE + 3n, name: "=HYPERLINK(\"https://evil.example\")", tag: "e2e-activity" },
    { id: BASE + 4n, name: "Aloe vera", tag: "e2e-activity" },
  ];
  for (const plant of plants) await storedAndDeleted(page, plant);

  await page.goto("/activity");
  await page.getByLabel("Kind of change").selectOption("plant.deleted");
  await page.getByLabel("Person").selectOption({ label: `${OWNER.name} (${OWNER.email})` });
  await page.getByRole("button", { name: "Show records" }).click();
  await expect(page).toHaveURL(/\/activity\?person=[0-9a-f-]{36}&action=plant\.deleted$/);
  await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText("Aloe vera");
  await expect(page.getByRole("table").getByRole("row").nth(2)).toContainText(plants[0]!.name);
  const person = new URL(page.url()).searchParams.get("person");
  await expect(page.getByRole("link", { name: "Download every matching record as CSV" })).toHaveAttribute("href", `/activity.csv?person=${person}&action=plant.deleted`);

  const csv = await page.request.get(`/activity.csv?plant=${plants[0]!.id}`, { headers: SAME_ORIGIN });
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8; header=present");
  expect(csv.headers()["content-disposition"]).toBe(`attachment; filename="activity-plant-${plants[0]!.id}-${new Date().toISOString().slice(0, 10)}.csv"`);
  const [header, ...records] = (await csv.text()).trimEnd().split("\r\n");
  expect(header).toMatch(/^id,at,action,what,who,/);
  expect(records).toHaveLength(2);
  expect(records[0]).toContain(`,plant.deleted,deleted,${OWNER.name},person,`);
  expect(records[0]).toContain(`,plant,${plants[0]!.id},plant ${plants[0]!.id},`);
  // The plant as it was, exact, as JSON for a program and in words for a person; no cell starts a formula.
  expect(records[0]).toContain(`"{""id"":${plants[0]!.id},""name"":""=HYPERLINK(\\""https://evil.example\\"")"",""tag"":""e2e-activity""}"`);
  expect(records[0]).toContain(`"as it was: Id: ${plants[0]!.id}; Name: =HYPERLINK(""https://evil.example""); Tag: e2e-activity"`);
  expect(records[0]).not.toMatch(/,"?=/);

  // A page at a time, before the oldest record seen.
  await page.goto(`/activity?action=plant.deleted&before=${await firstRecordId(page, "/activity?action=plant.deleted")}`);
  await expect(page.getByRole("link", { name: "Newest records" })).toBeVisible();
});

/** The id of the newest record a page of Activity shows, from its Restore form. */
async function firstRecordId(page: Page, path: string): Promise<string> {
  await page.goto(path);
  return (await page.locator('input[name="record"]').first().inputValue())!;
}

test("mistaken filters are named, in sentences, and no records are shown; the CSV refuses them with a 400", async ({ page }) => {
  await page.goto("/activity?plant=007&from=yesterday&to=2026-02-30");
  await expect(page.getByRole("status").filter({ hasText: "Correct" })).toHaveText("Correct the filters to see records.");
  await expect(page.locator("#activity-plant-error")).toHaveText("Plant must be a plant's id: an integer from -9223372036854775808 to 9223372036854775807.");
  await expect(page.getByLabel("Plant id")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Plant id")).toHaveValue("007");
  await expect(page.locator("#activity-from-error")).toContainText("From must be a date (2026-11-23, a day in UTC)");
  await expect(page.locator("#activity-to-error")).toContainText("To must be a date");
  await expect(page.getByRole("table")).toHaveCount(0);

  await page.goto("/activity?person=no-such-account");
  await expect(page.locator("#activity-person-error")).toHaveText("Person must be an account's id: no account has the id no-such-account.");

  const csv = await page.request.get("/activity.csv?plant=1.5", { headers: SAME_ORIGIN });
  expect(csv.status()).toBe(400);
  expect(await csv.text()).toBe("The filters are not valid: plant must be a plant's id: an integer from -9223372036854775808 to 9223372036854775807.\n");
  // Another site's link does not download the record with the owner's cookie.
  const elsewhere = await page.request.get("/activity.csv", { headers: { "sec-fetch-site": "cross-site" } });
  expect(elsewhere.status()).toBe(403);
});

for (const width of [1280, 375]) {
  test(`the Activity page passes axe at ${width} px with a deleted plant to restore, and nothing scrolls sideways`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const plant = { id: BASE + 10n + BigInt(width), name: "Dracaena trifasciata 'Laurentii', the variegated snake plant with a long name", tag: "succulent" };
    await storedAndDeleted(page, plant);
    await page.goto(`/activity?plant=${plant.id}`);
    await expect(page.getByRole("button", { name: /^Restore/ })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.getByRole("button", { name: /^Restore/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "Restored" })).toBeFocused();
    await expectNoAxeViolations(page);
    await page.goto("/activity");
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });

  test("the page and its CSV lead to sign-in, and back", async ({ page }) => {
    for (const path of ["/activity?plant=7", "/activity.csv?plant=7"]) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(307);
      expect(answer.headers().location, path).toBe("/sign-in?callbackUrl=%2Factivity%3Fplant%3D7");
    }
  });
});

test.describe("as staff who are not owners", () => {
  test.use({ storageState: SIGNED_OUT });

  test("Activity is not there: no link, and 404 for the page and its CSV", async ({ signedInNewAccount }) => {
    const page = await signedInNewAccount({ email: `sol-${unique()}@plants.example`, name: "Sol Staff", role: "staff", password: "a long enough passphrase for activity" });
    await expect(navLink(page, "Activity")).toHaveCount(0);
    expect((await page.request.get("/activity")).status()).toBe(404);
    expect((await page.request.get("/activity.csv", { headers: SAME_ORIGIN })).status()).toBe(404);
    await page.goto("/activity");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });
});

import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addPlants } from "./plants";

// The plants list with a keyboard alone (issue 20, point 7): every control
// Tab reaches is one the person can see (WCAG 2.4.7, Focus Visible). Below
// 40rem the table is drawn as cards and its header row is not shown, so the
// headers' sort links must leave the tab order with it; the search form's
// Sort field sorts there.

type Stop = { what: string; seen: boolean; sortLink: boolean };

/** Where focus is: what it is, whether it can be seen (the point at its centre hits it, so it is neither clipped away nor covered), and whether it is a column's sort link. */
function focusStop(page: Page): Promise<Stop | null> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return null;
    const box = focused.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      what: `${focused.tagName.toLowerCase()} "${(focused.textContent || focused.getAttribute("aria-label") || focused.id).trim().slice(0, 40)}"`,
      seen: box.width >= 1 && box.height >= 1 && hit !== null && (hit === focused || focused.contains(hit)),
      sortLink: focused.closest("thead") !== null,
    };
  });
}

/** Every stop of one round of Tab through the page, from its top to past its last control. */
async function tabRound(page: Page): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let presses = 0; presses < 60; presses++) {
    await page.keyboard.press("Tab");
    const stop = await focusStop(page);
    if (stop === null) return stops;
    stops.push(stop);
  }
  throw new Error(`focus did not leave the page after 60 Tabs: ${stops.map((stop) => stop.what).join(", ")}`);
}

test.beforeEach(async ({ page }) => {
  await addPlants(page, [
    { id: 7_610_001n, name: "Monstera deliciosa", tag: "e2e-keyboard" },
    { id: 7_610_002n, name: "Pilea peperomioides", tag: "e2e-keyboard" },
  ], { again: true });
});

test("on a phone, Tab reaches only controls that can be seen, and no hidden sort link; the Sort field sorts", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/?tag=e2e-keyboard");
  await expect(page.getByRole("rowheader")).toHaveText(["Pilea peperomioides", "Monstera deliciosa"]);

  const stops = await tabRound(page);
  expect(stops.filter((stop) => !stop.seen).map((stop) => stop.what), "focused but not visible").toEqual([]);
  expect(stops.filter((stop) => stop.sortLink).map((stop) => stop.what), "sort links reached").toEqual([]);
  // The round did go through the list: both plants' links were reached.
  expect(stops.map((stop) => stop.what)).toEqual(expect.arrayContaining(['a "Monstera deliciosa"', 'a "Pilea peperomioides"']));
  // The column headers still name each card's values for screen readers.
  const headers = page.getByRole("columnheader");
  await expect(headers).toHaveCount(4);
  for (const [index, name] of ["Id", "Name", "Tag", "Added"].entries()) await expect(headers.nth(index)).toHaveAccessibleName(name);

  await page.getByLabel("Sort").selectOption({ label: "Name, A to Z" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(page.getByRole("rowheader")).toHaveText(["Monstera deliciosa", "Pilea peperomioides"]);
});

test("on a laptop, the column headers' sort links are in the tab order, and seen when focused", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?tag=e2e-keyboard");
  await expect(page.getByRole("rowheader")).toHaveText(["Pilea peperomioides", "Monstera deliciosa"]);

  const stops = await tabRound(page);
  expect(stops.filter((stop) => !stop.seen).map((stop) => stop.what), "focused but not visible").toEqual([]);
  expect(stops.filter((stop) => stop.sortLink).map((stop) => stop.what)).toEqual(['a "Id"', 'a "Name"', 'a "Added ▼"']);
});

import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { addPlants, setAddedAt } from "./plants";

// The plants list (issue 11): find by name and tag, sort, page, a total,
// each plant a link, a CSV download of the match; all of it in the URL, on a
// laptop and on a phone. Each test tags its own plants and filters by that
// tag, so what other specs store does not change what it sees.

function names(page: Page): Promise<string[]> {
  return page.getByRole("rowheader").allInnerTexts();
}

function idCells(page: Page): Locator {
  return page.locator("td.id");
}

async function fits(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Boxes in the page's main part whose content is wider than they are (cut off, or scrolling inside), but for text kept in a 1 px box for screen readers. */
function spilling(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((element) => {
        const { display } = getComputedStyle(element);
        if (display === "inline" || display === "none" || ["INPUT", "SELECT"].includes(element.tagName)) return false;
        for (let box: Element | null = element; box; box = box.parentElement) {
          const { width, height } = box.getBoundingClientRect();
          if (width <= 1 && height <= 1) return false;
        }
        return element.scrollWidth > element.clientWidth + 1;
      })
      .map((element) => `${element.tagName.toLowerCase()} "${element.textContent?.slice(0, 40)}"`),
  );
}

test("a search by name and tag is kept in the URL, survives a reload, and is cleared in one step", async ({ page }) => {
  await addPlants(page, [
    { id: 7_510_001n, name: "Boston fern", tag: "e2e-search" },
    { id: 7_510_002n, name: "STAGHORN FERN", tag: "e2e-search" },
    { id: 7_510_003n, name: "Aloe vera", tag: "e2e-search" },
    { id: 7_510_004n, name: "Fern-leaf lavender", tag: "e2e-search-other" },
  ]);
  await page.goto("/");
  await page.getByLabel("Name contains").fill("fern");
  await page.getByLabel("Tag", { exact: true }).fill("e2e-search");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/\?q=fern&tag=e2e-search$/);
  await expect(page.getByRole("status").filter({ hasText: "found" })).toHaveText("2 plants found");
  expect(await names(page)).toEqual(["STAGHORN FERN", "Boston fern"]);

  await page.reload();
  await expect(page.getByLabel("Name contains")).toHaveValue("fern");
  await expect(page.getByLabel("Tag", { exact: true })).toHaveValue("e2e-search");
  expect(await names(page)).toEqual(["STAGHORN FERN", "Boston fern"]);

  // The tag matches exactly; a name's text anywhere, ignoring case.
  await page.getByLabel("Name contains").fill("");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/\?tag=e2e-search$/);
  await expect(page.getByText("3 plants found")).toBeVisible();

  await page.getByRole("link", { name: "Show every plant" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel("Tag", { exact: true })).toHaveValue("");

  // A filter no plant could match is a mistake to correct, in the API's words, not an empty list.
  await page.goto(`/?tag=${"t".repeat(51)}`);
  await expect(page.getByLabel("Tag", { exact: true })).toHaveAccessibleDescription(/Tag must be at most 50 characters \(got 51\)\./);
  await expect(page.getByRole("status").filter({ hasText: "Correct" })).toHaveText("Correct the search to see plants.");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the search form still finds plants, as a plain GET form", async ({ page }) => {
    await addPlants(page, [{ id: 7_520_001n, name: "Calathea orbifolia", tag: "e2e-no-script" }]);
    await page.goto("/");
    await page.getByLabel("Tag", { exact: true }).fill("e2e-no-script");
    await page.getByLabel("Tag", { exact: true }).press("Enter");
    await expect(page).toHaveURL(/tag=e2e-no-script/);
    expect(await names(page)).toEqual(["Calathea orbifolia"]);
    await expect(page.getByText("1 plant found")).toBeVisible();
  });
});

test("plants sort by when they were added, by id or by name, either way", async ({ page, sql }) => {
  const plants = [
    { id: 9_007_199_254_740_995n, name: "banana", tag: "e2e-sort" },
    { id: -5n, name: "Cactus", tag: "e2e-sort" },
    { id: 7_530_001n, name: "agave", tag: "e2e-sort" },
  ];
  await addPlants(page, plants);
  await setAddedAt(sql, -5n, "2026-01-01T00:00:00.000Z");
  await setAddedAt(sql, 9_007_199_254_740_995n, "2026-01-02T00:00:00.000Z");
  await setAddedAt(sql, 7_530_001n, "2026-01-03T00:00:00.000Z");

  await page.goto("/?tag=e2e-sort");
  expect(await names(page)).toEqual(["agave", "banana", "Cactus"]);
  await expect(page.getByRole("columnheader", { name: "Added" })).toHaveAttribute("aria-sort", "descending");

  await page.getByLabel("Sort").selectOption("Name, Z to A");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/\?tag=e2e-sort&sort=-name$/);
  expect(await names(page)).toEqual(["Cactus", "banana", "agave"]);

  // A column's header sorts by it; again, the other way.
  await page.getByRole("columnheader", { name: "Id" }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=id$/);
  await expect(page.getByRole("columnheader", { name: "Id" })).toHaveAttribute("aria-sort", "ascending");
  await expect(idCells(page)).toHaveText(["-5", "7530001", "9007199254740995"]);
  await page.getByRole("columnheader", { name: "Id" }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=-id$/);
  await expect(idCells(page)).toHaveText(["9007199254740995", "7530001", "-5"]);
  await expect(page.getByLabel("Sort")).toHaveValue("-id");

  await page.getByRole("columnheader", { name: "Added" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/\?tag=e2e-sort$/);
  await page.getByRole("columnheader", { name: "Added" }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=added$/);
  expect(await names(page)).toEqual(["Cactus", "banana", "agave"]);
});

test("the total of the match, and numbered pages with previous and next", async ({ page }) => {
  await addPlants(
    page,
    Array.from({ length: 23 }, (_, index) => ({ id: 7_540_000n + BigInt(index), name: `Pilea ${String(index).padStart(2, "0")}`, tag: "e2e-pages" })),
  );
  await page.goto("/?tag=e2e-pages&sort=name");
  await expect(page.getByText("23 plants found")).toBeVisible();
  const pages = page.getByRole("navigation", { name: "Pages" });
  await expect(pages).toContainText("Page 1 of 2");
  await expect(pages.getByRole("link", { name: "Previous page" })).toHaveCount(0);
  expect(await names(page)).toHaveLength(20);

  await pages.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\/\?tag=e2e-pages&sort=name&page=2$/);
  await expect(pages).toContainText("Page 2 of 2");
  expect(await names(page)).toEqual(["Pilea 20", "Pilea 21", "Pilea 22"]);
  await expect(pages.getByRole("link", { name: "Next page" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await pages.getByRole("link", { name: "Previous page" }).click();
  await expect(pages).toContainText("Page 1 of 2");
  expect((await names(page))[0]).toBe("Pilea 00");

  await page.goto("/?tag=e2e-pages&page=9");
  await expect(page.getByText("There is no page 9: these plants fill 2 pages.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the last page" }).click();
  await expect(pages).toContainText("Page 2 of 2");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("nothing is wider than the screen, and every id shows whole", async ({ page }) => {
    // In id order, as the list is sorted here. The widest ids: the smallest int64, and 19 digits near the
    // largest (that one is plant-form.spec.ts's, which stores it and gives it back).
    const ids = [-9_223_372_036_854_775_808n, 9_007_199_254_740_993n + 7_550_000n, 9_223_372_036_854_775_807n - 7_550_000n];
    // The longest tag there can be (50 characters), and a 200-character name without a space.
    const tag = "e2e-phone-".padEnd(50, "x");
    await addPlants(page, [
      { id: ids[0]!, name: "Dracaena trifasciata, the snake plant with a rather long name indeed", tag },
      { id: ids[1]!, name: "Sansevieriaceaeplantwithoutanyspacesinitsverylongname".padEnd(200, "e"), tag },
      { id: ids[2]!, name: "Fern", tag },
    ]);
    await page.goto(`/?tag=${tag}&sort=id`);
    await expect(idCells(page)).toHaveText(ids.map(String));
    expect(await fits(page), "the list fits 375 px").toBe(true);
    expect(await spilling(page), "nothing in the list is cut off").toEqual([]);
    // The caption spans the cards, on one line, rather than a column as narrow as its longest word.
    const caption = (await page.locator("table caption").boundingBox())!;
    const cards = (await page.locator("table tbody").boundingBox())!;
    expect(caption.width).toBeCloseTo(cards.width, 0);
    for (const cell of await page.locator("td.id").all()) {
      // Whole: not clipped in its cell, and inside the screen.
      expect(await cell.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }

    await page.getByRole("link", { name: /^Sansevieriaceae/ }).click();
    await expect(page.locator("dd.id")).toHaveText(String(ids[1]));
    expect(await fits(page), "a plant's page fits 375 px").toBe(true);
    expect(await spilling(page), "nothing on a plant's page is cut off").toEqual([]);
  });
});

test.describe("on a laptop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the search fields and their button sit in one row, the button level with the fields", async ({ page }) => {
    await page.goto("/");
    const search = page.getByRole("search", { name: "Find plants" });
    const top = async (locator: Locator) => (await locator.boundingBox())!.y;
    const name = await top(search.getByLabel("Name contains"));
    expect(await top(search.getByLabel("Tag", { exact: true }))).toBeCloseTo(name, 0);
    expect(await top(search.getByLabel("Sort"))).toBeCloseTo(name, 0);
    // Not level with the hints under the name and the tag, as it was.
    expect(Math.abs((await top(search.getByRole("button", { name: "Search" }))) - name)).toBeLessThanOrEqual(2);
  });
});

test.describe("in the viewer's time zone", () => {
  test.use({ timezoneId: "Pacific/Auckland" });

  test("when a plant was added is shown in local time, exactly on hover", async ({ page, sql }) => {
    await addPlants(page, [{ id: 7_560_001n, name: "Kawakawa", tag: "e2e-zone" }]);
    // 23:30 UTC on 23 November is 12:30 the next day in Auckland (NZDT, UTC+13).
    await setAddedAt(sql, 7_560_001n, "2026-11-23T23:30:00.000Z");
    await page.goto("/?tag=e2e-zone");
    const added = page.getByRole("row", { name: /Kawakawa/ }).locator("time");
    await expect(added).toHaveText("24 Nov 2026, 12:30");
    await expect(added).toHaveAttribute("datetime", "2026-11-23T23:30:00.000Z");
    await expect(added).toHaveAttribute("title", /24 Nov 2026, 12:30:00 GMT\+13 \(2026-11-23T23:30:00\.000Z\)/);
  });
});

test("each plant links to its page, opened in place", async ({ page }) => {
  await addPlants(page, [{ id: 9_007_199_254_740_993n + 7_570_000n, name: "Monstera adansonii", tag: "e2e-open" }]);
  await page.goto("/?tag=e2e-open");
  // Set on this document only: still there after the click means the app navigated without a page load.
  await page.evaluate(() => Object.assign(window, { listDocument: true }));
  await page.getByRole("link", { name: "Monstera adansonii" }).click();
  await expect(page).toHaveURL(/\/plants\/9007199262310993$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Monstera adansonii");
  await expect(page.locator("dd.id")).toHaveText("9007199262310993");
  expect(await page.evaluate(() => "listDocument" in window)).toBe(true);
  await page.getByRole("link", { name: "Plants", exact: true }).first().click();
  await expect(page).toHaveURL(/\/$/);
});

test("a browser that opens the API's list lands on this list, with its filters", async ({ page }) => {
  await addPlants(page, [{ id: 7_580_001n, name: "Hoya carnosa", tag: "e2e-api-list" }]);
  await page.goto("/plants?tag=e2e-api-list&limit=5");
  await expect(page).toHaveURL(/\/\?tag=e2e-api-list$/);
  expect(await names(page)).toEqual(["Hoya carnosa"]);
});

test("the match downloads as CSV, ids exact, under a name that says what it holds", async ({ page }) => {
  await addPlants(page, [
    { id: 9_007_199_254_740_993n + 7_590_000n, name: "Philodendron, \"Pink Princess\"", tag: "e2e-export" },
    { id: 9_223_372_036_854_775_807n - 7_590_000n, name: "=HYPERLINK(evil)", tag: "e2e-export" },
    { id: -9_007_199_254_740_993n, name: "Peperomia", tag: "e2e-export" },
    { id: 7_590_001n, name: "Not this one", tag: "e2e-export-other" },
  ]);
  await page.goto("/?tag=e2e-export&q=e");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download these 3 plants as CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^plants-tagged-e2e-export-named-e-\d{4}-\d\d-\d\d\.csv$/);
  expect(await readFile((await download.path())!, "utf8")).toBe(
    "id,name,tag\r\n" +
      "-9007199254740993,Peperomia,e2e-export\r\n" +
      '9007199262330993,"Philodendron, ""Pink Princess""",e2e-export\r\n' +
      "9223372036847185807,'=HYPERLINK(evil),e2e-export\r\n",
  );
});

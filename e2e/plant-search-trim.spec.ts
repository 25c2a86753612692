import { expect, test } from "./fixtures";
import { addPlants } from "./plants";

// "fern " typed in the search field finds the ferns (issue 20, point 7): the
// name's search text is trimmed, by the form and by the page reading its URL,
// so a link typed by hand, or the form sent without JavaScript, finds them too.
// A tag is matched exactly as written: a stored tag may begin or end with a space.

test.beforeEach(async ({ page }) => {
  await addPlants(page, [
    { id: 7_620_001n, name: "Boston fern", tag: "e2e-trim" },
    { id: 7_620_002n, name: "Aloe vera", tag: "e2e-trim" },
  ], { again: true });
});

test("the name's search text is trimmed before it is sent", async ({ page }) => {
  await page.goto("/?tag=e2e-trim");
  await page.getByLabel("Name contains").fill("  fern ");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/\?q=fern&tag=e2e-trim$/);
  await expect(page.getByRole("status").filter({ hasText: "found" })).toHaveText("1 plant found");
  await expect(page.getByRole("rowheader")).toHaveText(["Boston fern"]);
});

test("a URL whose search text has spaces around it finds what the trimmed text finds", async ({ page }) => {
  await page.goto("/?q=fern%20&tag=e2e-trim");
  await expect(page.getByRole("status").filter({ hasText: "found" })).toHaveText("1 plant found");
  await expect(page.getByRole("rowheader")).toHaveText(["Boston fern"]);
  // The download is of the plants shown.
  await expect(page.getByRole("link", { name: "Download this plant as CSV" })).toHaveAttribute("href", "/plants.csv?q=fern&tag=e2e-trim");

  // Only spaces: no filter on the name, as an empty field is.
  await page.goto("/?q=%20%20&tag=e2e-trim");
  await expect(page.getByRole("status").filter({ hasText: "found" })).toHaveText("2 plants found");
});

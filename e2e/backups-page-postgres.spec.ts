import { expect, expectNoAxeViolations, test } from "./fixtures";

// The Backups page on PostgreSQL (issue 23), in the PostgreSQL lane only
// (playwright.config.ts): the app takes no backups there, and the page says
// that pg_dump does. The SQLite lanes run backups-page.spec.ts.

test("on PostgreSQL the page says pg_dump backs the store up", async ({ page, database }) => {
  expect(database.provider).toBe("postgresql");
  await page.goto("/backups");
  await expect(page.getByRole("heading", { name: "Backups", level: 1 })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("which pg_dump backs up while the app runs");
  await expect(page.getByRole("button", { name: "Back up now" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
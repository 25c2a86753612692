import type { Page } from "@playwright/test";
import { expect, OWNER, SIGNED_OUT, signIn, test } from "./fixtures";

// Issue 11: one header on the staff pages and on the API reference, marking
// the page you are on; /docs stays public.

function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main" });
}

test("every page's header marks that page, /docs included", async ({ page }) => {
  const pages = [
    ["/", "Plants"],
    ["/plants/new", "Add a plant"],
    ["/import", "Import"],
    ["/tokens", "API tokens"],
    ["/webhooks", "Webhooks"],
    ["/team", "Team"],
    ["/activity", "Activity"],
    ["/backups", "Backups"],
    ["/docs", "API docs"],
  ];
  for (const [path, name] of pages) {
    await page.goto(path!);
    await expect(page.getByRole("banner").getByText(`${OWNER.name} (owner)`)).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    await expect(mainNav(page).locator("[aria-current]")).toHaveCount(1);
  }
  // The reference is still drawn under the header (in the browser, after load: slow on a busy machine).
  await expect(page.locator(".opblock").first()).toBeVisible();
});

test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });

  test("/docs shows the header without the staff pages, and Sign in leads back to it", async ({ page }) => {
    await page.goto("/docs");
    await expect(page.locator(".opblock").first()).toBeVisible();
    await expect(mainNav(page).getByRole("link")).toHaveText(["API docs"]);
    await expect(mainNav(page).getByRole("link", { name: "API docs" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);

    await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdocs$/);
    await signIn(page, OWNER.email, OWNER.password);
    await expect(page).toHaveURL(/\/docs$/);
    await expect(mainNav(page).getByRole("link", { name: "Webhooks" })).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "API docs" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("banner").getByText(`${OWNER.name} (owner)`)).toBeVisible();
  });
});

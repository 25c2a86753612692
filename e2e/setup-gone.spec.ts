import { expect, expectNoAxeViolations, test } from "./fixtures";

// After the first run (owner-setup.setup.ts), setup is gone for good: for the
// signed-in owner, and for anyone else.

test("once the owner exists, /setup is not found, for the owner as for anyone", async ({ page }) => {
  await page.goto("/setup");
  await expect(page.getByRole("heading", { name: /not found|404/i })).toBeVisible();
  await expectNoAxeViolations(page);
  const signedOut = await page.context().browser()!.newContext();
  try {
    expect((await signedOut.request.get(new URL("/setup", page.url()).href)).status()).toBe(404);
  } finally {
    await signedOut.close();
  }
});

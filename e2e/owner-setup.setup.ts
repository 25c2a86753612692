import { expect, expectNoAxeViolations, OWNER, signIn, test } from "./fixtures";

// Runs first (the "setup" project) on the empty database of this run. Two
// tests, not one: axe on two pages and a sign-in took 37 to 40 s on two cores
// with the three lanes side by side, past a test's 30 s; each half takes
// under half of that. "Setup is gone for good" is checked by setup-gone.spec.ts,
// in a lane.

test("first run: the setup page says what is missing or too short, and nothing is created", async ({ page, sql }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Set up Plant Store" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Create owner account" }).click();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#setup-email-error")).toHaveText("Email is required.");
  await page.getByLabel("Password").fill("too short");
  await page.getByLabel("Email").focus();
  await expect(page.locator("#setup-password-error")).toHaveText("Password must be at least 12 characters.");
  await expectNoAxeViolations(page);
  expect(await sql("SELECT id FROM users")).toEqual([]);
});

test("first run: the owner account is set up once and signed in", async ({ page, ownerState }) => {
  await page.goto("/setup");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Name").fill(OWNER.name);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create owner account" }).click();

  await expect(page).toHaveURL(/\/sign-in\?setup=done$/);
  await expect(page.getByRole("status")).toContainText("Your owner account is ready");
  expect((await page.request.get("/setup")).status()).toBe(404);

  await signIn(page, OWNER.email, OWNER.password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(page.getByText(`${OWNER.name} (owner)`)).toBeVisible();
  await page.context().storageState({ path: ownerState });
});

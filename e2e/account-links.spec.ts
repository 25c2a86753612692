import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, forgetSession, SIGNED_OUT, signIn, test } from "./fixtures";
import type { Store } from "./support/store";

// Where the one-time links lead (issue 21): an invitation makes the account
// and signs the invitee in, a reset link sets a new password and signs in, and
// a link that cannot be used says why, with no form. The links are made as an
// operator's user CLI makes them (e2e/support/store.ts; the CLI itself is
// tested in cli/user.test.ts). The lane's app has no mail server,
// so the sign-in page tells people to ask an owner for a reset link.

test.use({ storageState: SIGNED_OUT });

const PASSWORD = "willow compass thunder 58";
const OLD_PASSWORD = "granite meadow lantern 31";

// The lane's database is shared with the other specs: every account here is new.
const uniqueEmail = (who: string) => `${who}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@plants.example`;

// The links' paths (their origin is the operator's idea of the app's address, not this run's).
const invite = (store: Store, email: string) => store.invitationPath(email, "staff");
const resetLink = (store: Store, email: string) => store.passwordResetPath(email);

async function expectNoForm(page: Page): Promise<void> {
  await expect(page.locator("form")).toHaveCount(0);
  await expect(page.locator("input")).toHaveCount(0);
}

test("an invitation makes the account and signs the invitee in, refusing a weak password; then the link says it was used", async ({ page, store }) => {
  const email = uniqueEmail("ivy");
  const path = await invite(store, email);
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Join Plant Store" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(`This invitation is for ${email}, to join the store's team as staff.`);
  // The secret is in the URL: not sent on as a Referer, not indexed.
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);

  await page.getByLabel("Name").fill("Ivy Invitee");
  await page.getByLabel("Password").fill("password1234");
  await page.getByRole("button", { name: "Join the team" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Password is too easy to guess: this is similar to a commonly used password.");

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Join the team" }).click();
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(page.getByText("Ivy Invitee (staff)")).toBeVisible();

  await page.goto(path);
  await expect(page.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("It has already been used: sign in instead.");
  await expect(page.getByRole("main").getByRole("link", { name: "sign in" })).toHaveAttribute("href", "/sign-in");
  await expectNoForm(page);
});

test("an unknown link and a withdrawn invitation say so, with no form", async ({ page, store }) => {
  await page.goto(`/join/${"A".repeat(43)}`);
  await expect(page.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("It is not known here: check that the link was copied whole, or ask an owner of this store for a new one.");
  await expectNoForm(page);

  await page.goto("/reset-password/not-a-link");
  await expect(page.getByRole("heading", { name: "This password reset link cannot be used" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("It is not known here: check that the link was copied whole. Ask an owner of this store for a new one.");
  await expectNoForm(page);

  // A newer invitation for the same email withdraws the one before.
  const email = uniqueEmail("wren");
  const withdrawn = await invite(store, email);
  await invite(store, email);
  await page.goto(withdrawn);
  await expect(page.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("It was withdrawn, or replaced by a newer invitation: use the newest one you were sent, or ask an owner of this store for a new one.");
  await expectNoForm(page);
});

test("a reset link sets a new password and signs in; the old password no longer works", async ({ page, store, createAccount }) => {
  const email = uniqueEmail("rowan");
  await createAccount({ email, name: "Rowan Reset", role: "staff", password: OLD_PASSWORD });
  const path = await resetLink(store, email);
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(`For the account ${email}.`);
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");

  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(page.getByText("Rowan Reset (staff)")).toBeVisible();

  // Signed out by forgetting the cookie: the Sign out button is sign-in.spec.ts's to test.
  await forgetSession(page);
  await page.goto("/sign-in");
  await signIn(page, email, OLD_PASSWORD);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("That email and password do not match an account.");
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();

  await page.goto(path);
  await expect(page.getByRole("heading", { name: "This password reset link cannot be used" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("It has already been used");
  await expectNoForm(page);
});

test("without a mail server, the sign-in page says to ask an owner, and there is no forgot-password page", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByText("Forgot your password? Ask an owner of this store for a reset link.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveCount(0);
  const response = await page.goto("/forgot-password");
  expect(response?.status()).toBe(404);
});

for (const width of [1280, 375]) {
  test(`the join and reset pages pass axe at ${width} px, with a refusal showing`, async ({ page, store, createAccount }) => {
    await page.setViewportSize({ width, height: 800 });
    const invitee = uniqueEmail("axe-join");
    await page.goto(await invite(store, invitee));
    await expect(page.getByRole("heading", { name: "Join Plant Store" })).toBeVisible();
    await page.getByRole("button", { name: "Join the team" }).click();
    await expect(page.locator("#join-name-error")).toHaveText("Name is required.");
    await expectNoAxeViolations(page);

    const account = uniqueEmail("axe-reset");
    await createAccount({ email: account, name: "Axel Reset", role: "staff", password: OLD_PASSWORD });
    await page.goto(await resetLink(store, account));
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.locator("#new-password-error")).toHaveText("Password must be at least 12 characters.");
    await expectNoAxeViolations(page);
  });
}

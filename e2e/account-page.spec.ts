import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, SIGNED_OUT, signIn, test } from "./fixtures";

// A person's own account: name and email, a new password, and "sign out
// everywhere", each ending (or not) the person's sessions elsewhere, as a
// second browser signed in as them sees on its next request.

test.use({ storageState: SIGNED_OUT });

const PASSWORD = "lichen quartz bicycle 81";
const NEW_PASSWORD = "amber fjord lantern 27";

async function signedIn(browser: Browser, baseURL: string, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto("/sign-in");
  await signIn(page, email, password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  return page;
}

test("a clerk renames themself, and changing the password needs the current one, refuses a guessable one, and ends their other sessions", async ({
  browser,
  baseURL,
  createAccount,
}) => {
  const email = `kit-${randomUUID().slice(0, 8)}@plants.example`;
  await createAccount({ email, name: "Kit Clerk", role: "staff", password: PASSWORD });
  const here = await signedIn(browser, baseURL!, email, PASSWORD);
  const elsewhere = await signedIn(browser, baseURL!, email, PASSWORD);

  await here.getByRole("link", { name: "Kit Clerk" }).click();
  await expect(here.getByRole("heading", { name: "Your account" })).toBeVisible();
  await here.getByLabel("Name", { exact: true }).fill("Kit Fern");
  await here.getByRole("button", { name: "Save name and email" }).click();
  await expect(here.getByRole("status").filter({ hasText: /./ })).toHaveText("Your name and email are saved.");
  await here.reload();
  await expect(here.getByRole("banner").getByText("Kit Fern (staff)")).toBeVisible();

  await here.getByLabel("Current password", { exact: true }).fill("not my password at all");
  await here.getByLabel("New password").fill(NEW_PASSWORD);
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.locator("#current-password-error")).toHaveText("The current password is not right.");
  await here.getByLabel("Current password", { exact: true }).fill(PASSWORD);
  await here.getByLabel("New password").fill("password1234");
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.locator("#new-password-error")).toHaveText(/^Password is too easy to guess: .+\.$/);
  // Nothing changed so far: the other session still works.
  await elsewhere.goto("/tokens");
  await expect(elsewhere.getByRole("heading", { name: "API tokens" })).toBeVisible();

  await here.getByLabel("New password").fill(NEW_PASSWORD);
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByRole("status").filter({ hasText: /./ })).toHaveText("Your password is changed. You are signed out everywhere else; you stay signed in here.");

  // The other browser is signed out on its very next request; this one goes on.
  await elsewhere.goto("/tokens");
  await expect(elsewhere).toHaveURL(/\/sign-in\?callbackUrl=%2Ftokens$/);
  await here.goto("/tokens");
  await expect(here.getByRole("heading", { name: "API tokens" })).toBeVisible();
  // The cookie-authenticated API follows the same rule.
  expect((await elsewhere.request.get("/plants", { headers: { "sec-fetch-site": "same-origin" } })).status()).toBe(401);
  expect((await here.request.get("/plants", { headers: { "sec-fetch-site": "same-origin" } })).status()).toBe(200);

  // The old password opens nothing; the new one does.
  await elsewhere.goto("/sign-in");
  await signIn(elsewhere, email, PASSWORD);
  await expect(elsewhere.getByRole("alert").filter({ hasText: /./ })).toHaveText("That email and password do not match an account.");
  await signIn(elsewhere, email, NEW_PASSWORD);
  await expect(elsewhere.getByRole("heading", { name: "Plants" })).toBeVisible();
  await Promise.all([here.context().close(), elsewhere.context().close()]);
});

test("changing the email asks for the current password; sign out everywhere ends every other session and keeps this one", async ({ browser, baseURL, createAccount }) => {
  const email = `lee-${randomUUID().slice(0, 8)}@plants.example`;
  const moved = `lee-moved-${randomUUID().slice(0, 8)}@plants.example`;
  await createAccount({ email, name: "Lee Clerk", role: "staff", password: PASSWORD });
  const here = await signedIn(browser, baseURL!, email, PASSWORD);
  const elsewhere = await signedIn(browser, baseURL!, email, PASSWORD);

  await here.goto("/account");
  await here.getByLabel("Email").fill(moved);
  await here.getByRole("button", { name: "Save name and email" }).click();
  await expect(here.locator("#account-email-password-error")).toHaveText("The current password is not right.");
  await here.locator("#account-email-password").fill(PASSWORD);
  await here.getByRole("button", { name: "Save name and email" }).click();
  await expect(here.getByRole("status").filter({ hasText: /./ })).toHaveText("Your name and email are saved.");

  await here.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(here.getByRole("region", { name: "Where you are signed in" }).getByRole("status")).toHaveText("You are signed out everywhere else. You stay signed in here.");
  // The other browser's plant list follows changes: its stream ended with the session, it goes to sign-in by itself (issue 44).
  await expect(elsewhere).toHaveURL(/\/sign-in/);
  await here.goto("/");
  await expect(here.getByRole("heading", { name: "Plants" })).toBeVisible();

  // The new email is the one to sign in with.
  await signIn(elsewhere, moved, PASSWORD);
  await expect(elsewhere.getByRole("heading", { name: "Plants" })).toBeVisible();
  await Promise.all([here.context().close(), elsewhere.context().close()]);
});

for (const width of [1280, 375]) {
  test(`the account page has no axe violations at ${width}px, nor wider than the screen`, async ({ browser, baseURL, createAccount }) => {
    const email = `axe-${width}-${randomUUID().slice(0, 8)}@plants.example`;
    await createAccount({ email, name: "Ada Accessible", role: "staff", password: PASSWORD });
    const page = await signedIn(browser, baseURL!, email, PASSWORD);
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/account");
    // With every field shown, and an error under one.
    await page.getByLabel("Email").fill(`other-${email}`);
    await page.getByRole("button", { name: "Save name and email" }).click();
    await expect(page.locator("#account-email-password-error")).toHaveText("The current password is not right.");
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.context().close();
  });
}

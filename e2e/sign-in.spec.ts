import { expect, expectNoAxeViolations, forgetSession, OWNER, SIGNED_OUT, signIn, test } from "./fixtures";

test.use({ storageState: SIGNED_OUT });

test("a signed-out visitor is sent to sign-in and back to the page they asked for", async ({ page }) => {
  for (const path of ["/", "/plants/new", "/tokens"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in/);
  }
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Ftokens$/);
  await signIn(page, OWNER.email, OWNER.password);
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
});

test("a wrong password is refused with an announced error", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("#sign-in-email-error")).toHaveText("Email is required.");
  await expect(page.locator("#sign-in-password-error")).toHaveText("Password is required.");
  await signIn(page, OWNER.email, "not the password at all");
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("That email and password do not match an account.");
  await expectNoAxeViolations(page);
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("a sign-in that cannot load what signs in says so, and signs in once it can", async ({ page, context }) => {
  await page.goto("/sign-in", { waitUntil: "networkidle" });
  // The form's checks load with its first submit; next-auth's client, with the first sign-in (issue 20).
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("#sign-in-email-error")).toHaveText("Email is required.");
  await context.setOffline(true);
  await signIn(page, OWNER.email, OWNER.password);
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("You are not signed in: the server could not be reached. Check your connection and try again.");

  await context.setOffline(false);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
});

test("sign in, then sign out ends the session", async ({ page }) => {
  await page.goto("/sign-in");
  await signIn(page, OWNER.email, OWNER.password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/plants/new");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fplants%2Fnew$/);
});

test("sign-in never sends anyone to another site", async ({ page, baseURL }) => {
  for (const callbackUrl of ["https://evil.example/", "//evil.example/", "/\\evil.example/"]) {
    await forgetSession(page);
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await signIn(page, OWNER.email, OWNER.password);
    await expect(page).toHaveURL(`${baseURL}/`);
  }
});

test("after five failed sign-ins for an account even the right password must wait, and an email with no account is told the same", async ({ page, createAccount }) => {
  const account = { email: "guessed@plants.example", name: "Gus", role: "staff" as const, password: "the right long passphrase" };
  await createAccount(account);
  const alert = page.getByRole("alert").filter({ hasText: /./ });
  await page.goto("/sign-in");
  for (const email of [account.email, "nobody@plants.example"]) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signIn(page, email, `wrong passphrase number ${attempt}`);
      await expect(alert).toHaveText("That email and password do not match an account.");
    }
    await signIn(page, email, account.password);
    await expect(alert).toHaveText("Too many failed sign-ins. Wait 15 minutes, then try again.");
  }
  await expect(page).toHaveURL(/\/sign-in$/);
});

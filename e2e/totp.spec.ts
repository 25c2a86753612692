import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { generateSync } from "otplib";
import { expect, expectNoAxeViolations, SIGNED_OUT, signIn, test } from "./fixtures";

// One-time codes (issue 24) in the browser: a person turns on an
// authenticator app from the Account page with a code made here from the key
// the page shows, then signs in with a code, and with a recovery code that
// then no longer works; a wrong code and a reused one are refused; turning it
// off needs the password and a code. axe checks each new view at 1280 and 375 px,
// with its message of a refused code where it has one. That a code, or a
// recovery code, signs in once is the server's to refuse, in
// lib/auth/second-factors/totp.test.ts and test/http/sign-in-code.test.ts: here
// the refusals each page shows.

test.use({ storageState: SIGNED_OUT });

const PASSWORD = "lichen quartz bicycle 81";

/** The app's code for the step `offsetSteps` from now's (one step ahead is still inside the window). */
const codeOf = (secret: string, offsetSteps = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  return (await browser.newContext({ baseURL })).newPage();
}

/** Password first: a person with an app is then asked for a code, and the password field is gone. */
async function passwordStep(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("heading", { name: "Enter a code" })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
}

async function codeStep(page: Page, code: string): Promise<void> {
  await page.getByLabel("Code from your authenticator app").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function axeAtBothWidths(page: Page): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("turning on an authenticator app, then signing in with a code or a recovery code, a refused code said as such, and turning it off", async ({ browser, baseURL, createAccount }) => {
  const email = `tia-${randomUUID().slice(0, 8)}@plants.example`;
  await createAccount({ email, name: "Tia Totp", role: "staff", password: PASSWORD });

  // Set up, signed in with the password alone.
  const here = await newPage(browser, baseURL!);
  await here.goto("/sign-in");
  await signIn(here, email, PASSWORD);
  await expect(here.getByRole("heading", { name: "Plants" })).toBeVisible();
  await here.goto("/account");
  await here.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(here.getByRole("img", { name: /^QR code to add Plant Store to your authenticator app/ })).toBeVisible();
  const secret = await here.getByLabel("Or type this setup key").inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await here.getByLabel("Code from the app").fill(codeOf(secret) === "000000" ? "111111" : "000000");
  await here.getByRole("button", { name: "Turn on" }).click();
  await expect(here.locator("#totp-confirm-code-error")).toHaveText("That code is not right, or was already used: use the next code your app shows.");
  await axeAtBothWidths(here);
  const confirmingCode = codeOf(secret);
  await here.getByLabel("Code from the app").fill(confirmingCode);
  await here.getByRole("button", { name: "Turn on" }).click();
  await expect(here.getByRole("heading", { name: "Your recovery codes" })).toBeFocused();
  const recoveryCodes = await here.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
  await axeAtBothWidths(here);
  await here.getByRole("button", { name: "I have kept them" }).click();
  await expect(here.getByText(/^An authenticator app is on since .+ 10 of 10 recovery codes left\.$/)).toBeVisible();
  await axeAtBothWidths(here);

  // A password alone no longer signs in; a wrong code, and the code that confirmed the app, are refused.
  const second = await newPage(browser, baseURL!);
  await passwordStep(second, email);
  await codeStep(second, confirmingCode === "123456" ? "654321" : "123456");
  await expect(second.locator("#sign-in-code-error")).toHaveText("That code is not right, or was already used. Use the code your app shows now.");
  await codeStep(second, confirmingCode);
  await expect(second.locator("#sign-in-code-error")).toHaveText("That code is not right, or was already used. Use the code your app shows now.");
  await axeAtBothWidths(second);
  // The next step's code is inside the window, and later than the one that confirmed.
  const signInCode = codeOf(secret, 1);
  await codeStep(second, signInCode);
  await expect(second.getByRole("heading", { name: "Plants" })).toBeVisible();

  // From another browser, a recovery code signs in, typed as it comes.
  const third = await newPage(browser, baseURL!);
  await passwordStep(third, email);
  await codeStep(third, recoveryCodes[0]!.toLowerCase());
  await expect(third.getByRole("heading", { name: "Plants" })).toBeVisible();

  // Turning it off: the password and a code; then the password alone signs in.
  await third.goto("/account");
  await expect(third.getByText(/9 of 10 recovery codes left\.$/)).toBeVisible();
  await third.locator("#totp-off-password").fill("not my password at all");
  await third.locator("#totp-off-code").fill(recoveryCodes[1]!);
  await third.getByRole("button", { name: "Turn off the authenticator app" }).click();
  await expect(third.locator("#totp-off-password-error")).toHaveText("The current password is not right.");
  await third.locator("#totp-off-password").fill(PASSWORD);
  await third.getByRole("button", { name: "Turn off the authenticator app" }).click();
  await expect(third.getByRole("status").filter({ hasText: /./ })).toHaveText("The authenticator app is off: signing in asks for your password alone.");
  await expect(third.getByRole("button", { name: "Set up an authenticator app" })).toBeVisible();

  const fifth = await newPage(browser, baseURL!);
  await fifth.goto("/sign-in");
  await signIn(fifth, email, PASSWORD);
  await expect(fifth.getByRole("heading", { name: "Plants" })).toBeVisible();
  // Every change of the factor ended the other sessions: the first browser was signed out when the app was turned off.
  await second.goto("/tokens");
  await expect(second).toHaveURL(/\/sign-in\?callbackUrl=%2Ftokens$/);
  for (const page of [here, second, third, fifth]) await page.context().close();
});

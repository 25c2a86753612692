import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, CDPSession, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, SIGNED_OUT, signIn, test } from "./fixtures";

// Passkeys (issue 24) with Chromium's virtual authenticator (the DevTools
// protocol's WebAuthn domain): a person adds one on the Account page, which
// ends their other sessions; signs out and in again with the passkey alone;
// removes it, after which it signs no one in.
//
// WebAuthn refuses an IP address as the relying party's id, and the specs'
// apps listen on 127.0.0.1 without NEXTAUTH_URL: these tests reach the same app
// as localhost, so the relying party is the one assumed from the Host header
// (lib/auth/second-factors/passkey-relying-party.ts).

test.use({ storageState: SIGNED_OUT });

const PASSWORD = "heather basalt compass 63";

function localhost(baseURL: string): string {
  const url = new URL(baseURL);
  url.hostname = "localhost";
  return url.origin;
}

/**
 * A browser context at the app as localhost, with a platform authenticator that holds discoverable credentials and verifies its user.
 * Chromium's virtual authenticator answers the sign-in page's autofill request (conditional mediation) by itself, as a person
 * picking their passkey from the email field's suggestions would, and it would race a test's click on the button: so the
 * browser says it has no such autofill unless `autofill` asks for it.
 */
async function withAuthenticator(
  browser: Browser,
  baseURL: string,
  { autofill = false } = {},
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext({ baseURL: localhost(baseURL) });
  if (!autofill) {
    await context.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", { value: async () => false });
    });
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { context, page, cdp, authenticatorId };
}

async function signInWithPassword(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
}

async function addPasskey(page: Page, name: string): Promise<void> {
  await page.goto("/account");
  await page.getByLabel("Passkey name").fill(name);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Passkey/ })).toHaveText(`Passkey “${name}” added. You are signed out everywhere else.`);
}

test("a person adds a passkey, signs in with it alone, and removes it, after which it signs no one in", async ({ browser, baseURL, createAccount, sql }) => {
  const email = `pia-${randomUUID().slice(0, 8)}@plants.example`;
  await createAccount({ email, name: "Pia Passkey", role: "staff", password: PASSWORD });
  const { context, page, cdp, authenticatorId } = await withAuthenticator(browser, baseURL!);
  await signInWithPassword(page, email);
  const elsewhere = await (await browser.newContext({ baseURL: localhost(baseURL!) })).newPage();
  await signInWithPassword(elsewhere, email);

  await page.goto("/account");
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.locator("#passkey-name-error")).toHaveText("Name is required.");
  await addPasskey(page, "Work laptop");
  const item = page.getByRole("listitem").filter({ hasText: "Work laptop" });
  await expect(item).toContainText("last used never");

  // A discoverable credential on the authenticator, and on the server its id, COSE key and counter.
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
  const [stored] = await sql("SELECT p.id, p.public_key, p.counter, p.name FROM passkeys p JOIN users u ON u.id = p.user_id WHERE u.email = $1", [email]);
  expect(stored).toMatchObject({ id: Buffer.from(credentials[0]!.credentialId, "base64").toString("base64url"), name: "Work laptop" });
  expect(String(stored!.public_key)).toMatch(/^[A-Za-z0-9_-]+$/);

  // Adding it ended the other session; this one goes on.
  await elsewhere.goto("/tokens");
  await expect(elsewhere).toHaveURL(/\/sign-in\?callbackUrl=%2Ftokens$/);
  await page.goto("/tokens");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();

  // Signed out, the passkey alone signs in: no email, no password.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Plant Store" })).toBeVisible();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  const [used] = await sql("SELECT p.counter, p.last_used_at FROM passkeys p JOIN users u ON u.id = p.user_id WHERE u.email = $1", [email]);
  expect(Number(used!.counter)).toBeGreaterThan(0);
  expect(used!.last_used_at).not.toBeNull();
  await page.goto("/account");
  await expect(item).not.toContainText("last used never");

  // Removing it ends the other sessions too, keeps this one, and the passkey opens nothing afterwards.
  await page.getByRole("button", { name: "Remove passkey Work laptop" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Passkey/ })).toHaveText("Passkey “Work laptop” removed. You are signed out everywhere else.");
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  const actions = await sql("SELECT a.action FROM activity a JOIN users u ON u.id = a.subject_id WHERE u.email = $1 AND a.action LIKE 'account.passkey%' ORDER BY a.id", [email]);
  expect(actions.map((row) => row.action)).toEqual(["account.passkey_added", "account.passkey_removed"]);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /passkey/ })).toHaveText("That passkey did not sign you in. It may have been removed from your account.");
  await expect(page).toHaveURL(/\/sign-in/);
  await Promise.all([context.close(), elsewhere.context().close()]);
});

test("with the browser's autofill, the sign-in page offers the passkey and signs in with it, no button pressed", async ({ browser, baseURL, createAccount }) => {
  const email = `ada-${randomUUID().slice(0, 8)}@plants.example`;
  await createAccount({ email, name: "Ada Autofill", role: "staff", password: PASSWORD });
  const { context, page } = await withAuthenticator(browser, baseURL!, { autofill: true });
  await signInWithPassword(page, email);
  await addPasskey(page, "Phone");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  // The virtual authenticator picks the one passkey it holds from the autofill, as the person would.
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await context.close();
});

test("a deactivated account's passkey signs no one in", async ({ browser, baseURL, createAccount, sql }) => {
  const email = `dee-${randomUUID().slice(0, 8)}@plants.example`;
  await createAccount({ email, name: "Dee Gone", role: "staff", password: PASSWORD });
  const { context, page } = await withAuthenticator(browser, baseURL!);
  await signInWithPassword(page, email);
  await addPasskey(page, "Old phone");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await sql("UPDATE users SET deactivated_at = created_at WHERE email = $1", [email]);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /passkey/ })).toHaveText("That passkey did not sign you in. It may have been removed from your account.");
  await context.close();
});

for (const width of [1280, 375]) {
  test(`the account page's passkeys and the sign-in page have no axe violations at ${width}px, nor are wider than the screen`, async ({ browser, baseURL, createAccount }) => {
    const email = `axe-pk-${width}-${randomUUID().slice(0, 8)}@plants.example`;
    await createAccount({ email, name: "Ada Accessible", role: "staff", password: PASSWORD });
    const { context, page } = await withAuthenticator(browser, baseURL!);
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/sign-in");
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
    await addPasskey(page, "A security key with a rather long name to wrap");
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });
}

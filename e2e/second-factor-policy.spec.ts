import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { encode } from "next-auth/jwt";
import { generateSync } from "otplib";
import { sealEndpointSecret } from "../lib/webhooks/endpoint-secret";
import type { E2eDatabase } from "../test/support/e2e-databases";
import { expect, expectNoAxeViolations, SIGNED_OUT, signIn, test } from "./fixtures";

// The owners' second-factor policy and recovery in the browser (issue 24): an
// owner is refused a policy they do not meet, then requires a second factor of
// everyone; a clerk who has none lands on the Account page right after
// signing in and is sent back there from every other page, until they set up
// an authenticator app there, which releases that same session; an owner
// clears a clerk's factors, which ends the clerk's sessions.
//
// The held clerk's factor is set up through the Account page, as a person
// does (the code made here with otplib from the key the page shows). The
// others' factors are written as rows (the seed sealed as the app seals it),
// and a session that passed one is a session cookie made as next-auth makes
// it, with factor "totp": quicker, and the authenticator app's sign-in step is
// specified in totp.spec.ts. The policy is the whole store's, and the specs of
// a lane share one app: it is put back to off after each test.

const PASSWORD = "a long enough passphrase for factors";
const SEED = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

const unique = () => randomBytes(4).toString("hex");

/** The app's NEXTAUTH_SECRET: given to it on PostgreSQL, made in its data folder on SQLite. */
function appSecret(database: E2eDatabase): string {
  return database.env.NEXTAUTH_SECRET || readFileSync(path.join(database.dataDir, "auth-secret"), "utf8").trim();
}

type Sql = (statement: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

async function accountId(sql: Sql, email: string): Promise<string> {
  const [row] = await sql("SELECT id FROM users WHERE email = $1", [email]);
  return String(row!.id);
}

/** Now, as the database's DateTime columns hold it (test/support/webhook-endpoints.ts sqlTime). */
function sqlNow(database: E2eDatabase): string {
  const now = new Date().toISOString();
  return database.provider === "sqlite" ? now.replace("Z", "+00:00") : now.replace("T", " ").replace("Z", "");
}

/** A confirmed authenticator app for the account, as the Account page leaves one. */
async function addTotp(sql: Sql, database: E2eDatabase, userId: string): Promise<void> {
  const now = sqlNow(database);
  await sql("INSERT INTO totp_factors (user_id, secret, confirmed_at, created_at) VALUES ($1, $2, $3, $4)", [userId, sealEndpointSecret(SEED, appSecret(database)), now, now]);
}

/** This browser's session becomes one that signed in with the account's authenticator app. */
async function signedInWithTotp(context: BrowserContext, database: E2eDatabase, user: { id: string; name: string; email: string }): Promise<void> {
  const token = await encode({ token: { sub: user.id, name: user.name, email: user.email, signedInAt: Date.now(), factor: "totp" }, secret: appSecret(database), maxAge: 8 * 60 * 60 });
  await context.addCookies([{ name: "next-auth.session-token", value: token, url: database.baseURL, httpOnly: true, sameSite: "Lax" }]);
}

async function axeAtBothWidths(page: Page): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.afterEach(async ({ sql }) => {
  await sql("DELETE FROM settings WHERE key = 'second_factor_policy'");
});

test("an owner requires a second factor of everyone, once they have one, and a clerk who has none is made to set one up", async ({ browser, database, sql, signedInNewAccount, createAccount }) => {
  const owner = { email: `ruth-${unique()}@plants.example`, name: `Ruth ${unique()}`, role: "owner" as const, password: PASSWORD };
  const page = await signedInNewAccount(owner);
  await page.goto("/team");
  const policy = page.getByRole("group", { name: "Who must have a second factor" });
  await expect(policy.getByRole("radio", { name: /^Nobody/ })).toBeChecked();
  await policy.getByRole("radio", { name: /^Everyone/ }).check();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "second factor" })).toHaveText(/^Set up a second factor for yourself \(an authenticator app or a passkey, on your Account page\) before you require one/);
  expect(await sql("SELECT value FROM settings WHERE key = 'second_factor_policy'")).toEqual([]);
  await axeAtBothWidths(page);

  // With an authenticator app, this password-only session no longer counts: sign in again with it.
  const ownerId = await accountId(sql, owner.email);
  await addTotp(sql, database, ownerId);
  await page.goto("/team");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fteam&again=second-factor$/);
  await expect(page.getByRole("status").filter({ hasText: "second factor" })).toHaveText("Your account has a second factor: sign in again with it to go on.");
  await axeAtBothWidths(page);

  await signedInWithTotp(page.context(), database, { id: ownerId, name: owner.name, email: owner.email });
  await page.goto("/team");
  await policy.getByRole("radio", { name: /^Everyone/ }).check();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toHaveText("Saved. Who must have a second factor: Everyone: every owner and staff member must have one.");
  expect(await sql("SELECT value FROM settings WHERE key = 'second_factor_policy'")).toEqual([{ value: "everyone" }]);
  // The owner, who passed their factor, goes on as before.
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();

  // A clerk with no second factor is sent to set one up right after signing in, and from every other page.
  const clerk = { email: `clara-${unique()}@plants.example`, name: `Clara ${unique()}`, role: "staff" as const, password: PASSWORD };
  await createAccount(clerk);
  const clerkContext = await browser.newContext({ storageState: SIGNED_OUT });
  try {
    const clerkPage = await clerkContext.newPage();
    await clerkPage.goto("/sign-in");
    await signIn(clerkPage, clerk.email, clerk.password);
    await expect(clerkPage).toHaveURL(/\/account#second-factor$/);
    await expect(clerkPage.getByRole("heading", { name: "Set up a second factor to go on" })).toBeVisible();
    for (const blocked of ["/", "/tokens", "/plants/new", "/activity"]) {
      await clerkPage.goto(blocked);
      await expect(clerkPage, blocked).toHaveURL(/\/account#second-factor$/);
    }
    await axeAtBothWidths(clerkPage);
    // Sign-out is never held; signing in again is held as before.
    await clerkPage.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(clerkPage).toHaveURL(/\/sign-in$/);
    await expect(clerkPage.getByRole("heading", { name: "Sign in to Plant Store" })).toBeVisible();
    await signIn(clerkPage, clerk.email, clerk.password);
    await expect(clerkPage).toHaveURL(/\/account#second-factor$/);

    // The clerk sets up an authenticator app where they were sent, and that same session is released.
    await clerkPage.getByRole("button", { name: "Set up an authenticator app" }).click();
    const secret = await clerkPage.getByLabel("Or type this setup key").inputValue();
    await clerkPage.getByLabel("Code from the app").fill(generateSync({ secret }));
    await clerkPage.getByRole("button", { name: "Turn on" }).click();
    await expect(clerkPage.getByRole("heading", { name: "Your recovery codes" })).toBeFocused();
    await expect(clerkPage.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await clerkPage.getByRole("button", { name: "I have kept them" }).click();
    await expect(clerkPage.getByText(/^An authenticator app is on since .+ 10 of 10 recovery codes left\.$/)).toBeVisible();
    await expect(clerkPage.getByRole("heading", { name: "Set up a second factor to go on" })).toHaveCount(0);
    for (const [released, heading] of [
      ["/", "Plants"],
      ["/tokens", "API tokens"],
      ["/plants/new", "Add a plant"],
    ] as const) {
      await clerkPage.goto(released);
      await expect(clerkPage, released).toHaveURL(released);
      await expect(clerkPage.getByRole("heading", { level: 1 }), released).toHaveText(heading);
    }
  } finally {
    await clerkContext.close();
  }

  const [record] = await sql("SELECT action, actor_name, subject_kind, subject_id, changes FROM activity WHERE action = 'settings.changed' ORDER BY id DESC LIMIT 1");
  expect(record).toMatchObject({ actor_name: owner.name, subject_kind: "setting", subject_id: "second_factor_policy" });
  expect(JSON.parse(String(record!.changes))).toEqual({ before: { secondFactorPolicy: "off" }, after: { secondFactorPolicy: "everyone" } });
});

test("an owner clears a clerk's second factors: the clerk's sessions end, and they sign in with their password alone", async ({ page, browser, database, sql, createAccount }) => {
  const clerk = { email: `cole-${unique()}@plants.example`, name: `Cole ${unique()}`, role: "staff" as const, password: PASSWORD };
  await createAccount(clerk);
  const clerkId = await accountId(sql, clerk.email);
  await addTotp(sql, database, clerkId);
  await sql("INSERT INTO passkeys (id, user_id, name, public_key, device_type, backed_up, created_at) VALUES ($1, $2, 'work phone', 'pQECAyYgASFYIA', 'multiDevice', TRUE, $3)", [
    `cred-${unique()}`,
    clerkId,
    sqlNow(database),
  ]);
  const clerkContext = await browser.newContext({ storageState: SIGNED_OUT });
  try {
    await signedInWithTotp(clerkContext, database, { id: clerkId, name: clerk.name, email: clerk.email });
    const clerkPage = await clerkContext.newPage();
    await clerkPage.goto("/account");
    await expect(clerkPage.getByRole("heading", { name: "Your account" })).toBeVisible();

    await page.goto("/team");
    const row = page.getByRole("row").filter({ hasText: clerk.email });
    await expect(row).toContainText("yes");
    await row.getByRole("button", { name: `Clear second factors of ${clerk.name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Clear the second factors of ${clerk.name}?` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await axeAtBothWidths(page);
    await dialog.getByRole("button", { name: "Yes, clear them" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Cleared" })).toHaveText(
      `Cleared the second factors of ${clerk.name}: their sessions have ended, and they sign in with their password alone.`,
    );
    await expect(row.getByRole("button", { name: `Clear second factors of ${clerk.name}` })).toHaveCount(0);
    await expect(row).toContainText("none");
    expect(await sql("SELECT user_id FROM totp_factors WHERE user_id = $1", [clerkId])).toEqual([]);
    expect(await sql("SELECT id FROM passkeys WHERE user_id = $1", [clerkId])).toEqual([]);
    const [record] = await sql("SELECT action, actor_kind, changes FROM activity WHERE subject_kind = 'account' AND subject_id = $1 ORDER BY id DESC LIMIT 1", [clerkId]);
    expect(record).toMatchObject({ action: "account.factors_cleared", actor_kind: "person" });
    expect(JSON.parse(String(record!.changes))).toEqual({ before: { authenticatorApp: true, passkeys: ["work phone"] } });

    // The clerk's session has ended; their password alone signs them in again.
    await clerkPage.goto("/account");
    await expect(clerkPage).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
    await signIn(clerkPage, clerk.email, clerk.password);
    await expect(clerkPage.getByRole("heading", { name: "Your account" })).toBeVisible();
  } finally {
    await clerkContext.close();
  }
});

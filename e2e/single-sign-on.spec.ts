import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { type AppServer, freePort, startApp } from "../test/support/app-server";
import { type OidcTestProvider, startOidcProvider, type TestIdentity } from "../test/support/oidc-test-provider";
import { makeTestDatabase } from "../test/support/test-database";
import { expect, expectNoAxeViolations, SIGNED_OUT, signIn, test } from "./fixtures";
import { type Store, startStore } from "./support/store";

// Single sign-on (issue 34) in a browser, on the lane's engine: an app of its
// own, configured for a real OpenID provider in this process
// (test/support/oidc-test-provider.ts), which has no login page and signs in
// as the identity a test names. The button leads there and back: an account
// with that verified email, an invitation for it, or a domain the store lets
// join signs the person in; anyone else is sent back with the reason. The
// owners' "single sign-on only" then refuses staff passwords, not their own.

test.use({ storageState: SIGNED_OUT });
// One app and provider for the file's tests, started and stopped in order.
test.describe.configure({ mode: "serial" });

const BUTTON = "Sign in with Shop Workspace";
const ALLOWED_DOMAIN = "shop.example";
const OWNER = { email: "olive@owners.example", name: "Olive Owner", password: "granite orchard lantern 64" };
const STAFF_PASSWORD = "velvet harbour crane 19";

let provider: OidcTestProvider;
let app: AppServer;
let store: Store;

test.beforeAll(async ({ database }) => {
  // The redirect URI the provider allows is on NEXTAUTH_URL, which single sign-on requires: the app's own address.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({ redirectUris: [`${url}/api/auth/callback/oidc`] });
  app = await startApp({
    port,
    database: await makeTestDatabase(database.provider),
    env: {
      NEXTAUTH_URL: url,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: BUTTON,
      OIDC_ALLOWED_DOMAINS: ALLOWED_DOMAIN,
    },
  });
  // Accounts and invitations in this app's database, as the operator's CLI makes them (e2e/support/store.ts).
  store = startStore(app.database);
  await store.createUser({ ...OWNER, role: "owner" });
});

test.afterAll(async () => {
  await store?.stop();
  await app?.stop();
  await app?.database.drop();
  await provider?.close();
});

/** Someone the provider knows by a subject of their own, their email verified there. */
const identity = (email: string, name: string): TestIdentity => ({ sub: randomUUID(), email, email_verified: true, name });

/** A fresh email at `domain`, so that each test makes its own people. */
const emailAt = (domain: string, who: string) => `${who}.${randomUUID().slice(0, 8)}@${domain}`;

/** A staff account with a password, as `user create` makes one. */
async function staffAccount(name: string, domain = ALLOWED_DOMAIN): Promise<{ email: string; name: string }> {
  const email = emailAt(domain, name.split(" ")[0]!.toLowerCase());
  await store.createUser({ email, name, role: "staff", password: STAFF_PASSWORD });
  return { email, name };
}

/** Signs in with the company sign-in's button, as whoever the provider signs in as now. */
async function signInWithButton(page: Page): Promise<void> {
  await page.goto(`${app.url}/sign-in`);
  await page.getByRole("button", { name: BUTTON }).click();
}

/** A browser of the person's own, signed in with their password: its page, at the plants. */
async function signedInWithPassword(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ storageState: SIGNED_OUT })).newPage();
  await page.goto(`${app.url}/sign-in`);
  await signIn(page, email, password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  return page;
}

test("a staff member signs in with the company sign-in's button and finds their company account linked", async ({ page }) => {
  const staff = await staffAccount("Sam Staff");
  provider.signInAs(identity(staff.email, "Sam at Shop Workspace"));

  await page.goto(`${app.url}/sign-in`);
  const button = page.getByRole("button", { name: BUTTON });
  await expect(button).toBeEnabled();
  await expectNoAxeViolations(page);
  await button.click();

  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(app.url);
  await expect(page.getByRole("banner").getByText(`${staff.name} (staff)`)).toBeVisible();
  await page.goto(`${app.url}/account`);
  await expect(page.getByRole("region", { name: "Company sign-in" }).getByText(staff.email, { exact: true })).toBeVisible();
});

test("an invited person joins with the company sign-in, in the role they were invited to", async ({ page }) => {
  // Of a domain the store does not let join: the invitation alone lets them in.
  const email = emailAt("partners.example", "ingrid");
  await store.invitationPath(email, "owner");
  provider.signInAs(identity(email, "Ingrid Invited"));

  await signInWithButton(page);

  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(page.getByRole("banner").getByText("Ingrid Invited (owner)")).toBeVisible();
});

test("someone whose verified email is of an allowed domain joins as staff", async ({ page }) => {
  provider.signInAs(identity(emailAt(ALLOWED_DOMAIN, "dora"), "Dora Domain"));

  await signInWithButton(page);

  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(page.getByRole("banner").getByText("Dora Domain (staff)")).toBeVisible();
});

test("a stranger with no account, invitation or allowed domain is sent back to sign in, told to ask for an invitation", async ({ page }) => {
  provider.signInAs(identity(emailAt("elsewhere.example", "stan"), "Stan Stranger"));

  await signInWithButton(page);

  await expect(page.getByRole("heading", { name: "Sign in to Plant Store" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert").filter({ hasText: /./ })).toHaveText(
    "Your company account has no account in this store. Ask an owner of the store for an invitation.",
  );
  await page.goto(`${app.url}/account`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
});

test("an owner sees who signs in by single sign-on on the Team page and unlinks them; a person with a password unlinks their own", async ({ browser, page }) => {
  const [unlinked, kept] = [await staffAccount("Una Unlinked"), await staffAccount("Kit Keeper")];
  for (const staff of [unlinked, kept]) {
    const context = await browser.newContext({ storageState: SIGNED_OUT });
    const own = await context.newPage();
    provider.signInAs(identity(staff.email, staff.name));
    await signInWithButton(own);
    await expect(own.getByRole("heading", { name: "Plants" })).toBeVisible();
    await context.close();
  }

  const owner = await signedInWithPassword(browser, OWNER.email, OWNER.password);
  await owner.goto(`${app.url}/team`);
  const accounts = owner.getByRole("region", { name: "Accounts" });
  await expect(accounts.getByRole("row", { name: new RegExp(unlinked.name) }).getByText(unlinked.email).first()).toBeVisible();
  await accounts.getByRole("button", { name: `Unlink the company account of ${unlinked.name}` }).click();
  await expect(owner.getByRole("status").filter({ hasText: "Unlinked their company account." })).toBeVisible();
  await expect(accounts.getByRole("button", { name: `Unlink the company account of ${unlinked.name}` })).toHaveCount(0);
  await owner.context().close();

  await page.goto(`${app.url}/sign-in`);
  await signIn(page, kept.email, STAFF_PASSWORD);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await page.goto(`${app.url}/account`);
  const section = page.getByRole("region", { name: "Company sign-in" });
  await section.getByRole("button", { name: "Unlink company account" }).click();
  await expect(section).toContainText("No company account is linked to yours.");
});

test("with single sign-on only, a staff member's right password is refused and an owner's still signs in", async ({ browser, page }) => {
  const staff = await staffAccount("Pat Password");
  const owner = await signedInWithPassword(browser, OWNER.email, OWNER.password);
  await owner.goto(`${app.url}/team`);
  const methods = owner.getByRole("region", { name: "Sign-in methods" });
  await methods.getByRole("radio", { name: /^Single sign-on only \(owners keep/ }).check();
  await methods.getByRole("button", { name: "Save" }).click();
  await expect(methods.getByRole("status")).toHaveText(/^Saved\. Staff sign in with: Single sign-on only/);
  await owner.context().close();

  await page.goto(`${app.url}/sign-in`);
  await signIn(page, staff.email, STAFF_PASSWORD);
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("This store's staff sign in with the company sign-in only: use its button.");

  const ownerAgain = await signedInWithPassword(browser, OWNER.email, OWNER.password);
  await expect(ownerAgain.getByRole("banner").getByText(`${OWNER.name} (owner)`)).toBeVisible();
  await ownerAgain.context().close();
});

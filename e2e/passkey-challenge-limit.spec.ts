import type { Page } from "@playwright/test";
import { type AppServer, startApp } from "../test/support/app-server";
import { runCli } from "../test/support/cli";
import { expect, SIGNED_OUT, signIn, test } from "./fixtures";

// Passkey sign-in challenges per client address (RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS):
// every sign-in page load asks for one, for the passkey autofill, so past the
// allowance the page says so in words, writes no challenge, and the password
// form still signs in. The lanes' apps allow far more (playwright.config.ts):
// this spec starts an app of its own with an allowance of two. As in
// passkeys.spec.ts, the app is reached as localhost, WebAuthn refusing an IP
// address as the relying party's id.

test.use({ storageState: SIGNED_OUT });
test.describe.configure({ mode: "serial" });

const ACCOUNT = { email: "cora@plants.example", name: "Cora Counted", password: "lichen harbour violet 24" };
const REFUSED = "Too many passkey sign-ins started from your address. Wait 1 minute, then try again. You can still sign in with your email and password.";

let app: AppServer;

test.beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS: "2/1m" } });
  const args = ["create", "--email", ACCOUNT.email, "--name", ACCOUNT.name, "--role", "staff"];
  expect(await runCli("user", args, { database: app.database, stdin: `${ACCOUNT.password}\n` }), "user CLI").toMatchObject({ code: 0 });
});

test.afterAll(async () => {
  await app?.stop();
});

/** Loads the sign-in page and waits for its request for a challenge (the autofill's) to be answered. */
async function loadSignIn(page: Page): Promise<void> {
  const answered = page.waitForResponse((response) => response.request().headers()["next-action"] !== undefined);
  await page.goto("/sign-in");
  await answered;
}

const challenges = async () => Number((await app.database.query<{ count: unknown }>("SELECT COUNT(*) AS count FROM webauthn_challenges"))[0]!.count);

test("past the allowance the sign-in page says so, no challenge is written, and the password still signs in", async ({ browser }) => {
  const url = new URL(app.url);
  url.hostname = "localhost";
  const context = await browser.newContext({ baseURL: url.origin });
  const page = await context.newPage();
  await loadSignIn(page);
  await loadSignIn(page);
  await expect(page.getByRole("alert").filter({ hasText: /passkey/ })).toHaveCount(0);
  expect(await challenges()).toBe(2);

  await loadSignIn(page);
  await expect(page.getByRole("alert").filter({ hasText: /passkey/ })).toHaveText(REFUSED);
  // The button asks again, and is refused again.
  const answered = page.waitForResponse((response) => response.request().headers()["next-action"] !== undefined);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await answered;
  await expect(page.getByRole("alert").filter({ hasText: /passkey/ })).toHaveText(REFUSED);
  expect(await challenges()).toBe(2);

  await signIn(page, ACCOUNT.email, ACCOUNT.password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await context.close();
});

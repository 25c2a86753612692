import { type Browser, type Page, request } from "@playwright/test";
import { type AppServer, freePort, startApp } from "../test/support/app-server";
import { runCli } from "../test/support/cli";
import { startSmtpServer, type SmtpTestServer } from "../test/support/smtp-test-server";
import { makeTestDatabase } from "../test/support/test-database";
import { expect, SIGNED_OUT, signIn, test } from "./fixtures";

// The team's whole life cycle (issue 21), on the lane's engine, through an app
// of its own that emails through a real SMTP server in this process: an owner
// invites a clerk, who joins through the emailed link, works and changes their
// password; the owner makes them an owner and staff again, deactivates them
// (their open session and their token stop on the next request), reactivates
// them, and resets their password by email; the last owner cannot remove
// themself; and a mail server that is down loses no invitation.

test.use({ storageState: SIGNED_OUT });
test.describe.configure({ mode: "serial" });

const OWNER = { email: "olive@cycle.example", name: "Olive Owner", password: "granite orchard lantern 64" };
const CLERK = { email: "clara@cycle.example", name: "Clara Clerk" };
const FIRST_PASSWORD = "velvet harbour crane 19";
const SECOND_PASSWORD = "saffron glacier tulip 52";
const THIRD_PASSWORD = "copper meadow violin 87";

let smtp: SmtpTestServer;
let app: AppServer;

test.beforeAll(async ({ database }) => {
  smtp = await startSmtpServer();
  // Emailed links lead to NEXTAUTH_URL, which email requires: this app's own address.
  const port = await freePort();
  app = await startApp({
    port,
    database: await makeTestDatabase(database.provider),
    env: { SMTP_URL: smtp.url, MAIL_FROM: "Plant Store <plants@cycle.example>", NEXTAUTH_URL: `http://127.0.0.1:${port}` },
  });
  const args = ["create", "--email", OWNER.email, "--name", OWNER.name, "--role", "owner"];
  expect(await runCli("user", args, { database: app.database, stdin: `${OWNER.password}\n` }), "user CLI").toMatchObject({ code: 0 });
});

test.afterAll(async () => {
  await app?.stop();
  await app?.database.drop();
  await smtp?.close();
});

async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: app.url })).newPage();
  await page.goto("/sign-in");
  await signIn(page, email, password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  return page;
}

/** The one link to `path` in an email's text. */
function linkIn(text: string, path: "/join" | "/reset-password"): string {
  const links = [...text.matchAll(/https?:\/\/\S+/g)].map(([link]) => link);
  expect(links, text).toHaveLength(1);
  expect(links[0]).toMatch(new RegExp(`^${app.url.replace(/\./g, "\\.")}${path}/[A-Za-z0-9_-]{43}$`));
  return links[0]!;
}

/**
 * An API client's request, on a connection of its own: a kept-alive one that
 * sat idle as long as the server's keep-alive timeout may be closed by the
 * server as the request goes out (ECONNRESET), as any HTTP client may meet.
 */
async function createPlantWith(token: string, id: number): Promise<{ status: number; body: { error?: unknown; message?: string } }> {
  const client = await request.newContext();
  try {
    const response = await client.post(`${app.url}/plants`, { headers: { authorization: `Bearer ${token}` }, data: { id, name: `Cycle fern ${id}` } });
    return { status: response.status(), body: (await response.json()) as { error?: unknown; message?: string } };
  } finally {
    await client.dispose();
  }
}

let owner: Page;
let clerk: Page;
let clerkToken: string;

test("an owner invites a clerk by email; the clerk joins through the emailed link, once", async ({ browser }) => {
  owner = await signedIn(browser, OWNER.email, OWNER.password);
  await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  await owner.getByLabel("Email").fill(CLERK.email);
  await owner.getByLabel("Role").selectOption("staff");
  await owner.getByRole("button", { name: "Invite" }).click();
  const shown = owner.getByLabel(`Invitation link for ${CLERK.email}`);
  await expect(shown).toBeFocused();
  await expect(owner.getByText(`We also emailed it to ${CLERK.email}.`)).toBeVisible();

  const mail = await smtp.nextMailTo(CLERK.email);
  expect(mail).toMatchObject({ from: "plants@cycle.example", subject: "Your invitation to Plant Store" });
  expect(mail.text).toContain(`${OWNER.name} invites you to join the store's team on Plant Store as staff.`);
  const link = linkIn(mail.text, "/join");
  expect(await shown.inputValue()).toBe(link);

  clerk = await (await browser.newContext({ baseURL: app.url })).newPage();
  await clerk.goto(link);
  await expect(clerk.getByRole("heading", { name: "Join Plant Store" })).toBeVisible();
  await clerk.getByLabel("Name").fill(CLERK.name);
  await clerk.getByLabel("Password").fill(FIRST_PASSWORD);
  await clerk.getByRole("button", { name: "Join the team" }).click();
  await expect(clerk.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(clerk.getByRole("banner").getByText(`${CLERK.name} (staff)`)).toBeVisible();

  // Used once: the same link now says so, and signs no one in.
  const stranger = await (await browser.newContext({ baseURL: app.url })).newPage();
  await stranger.goto(link);
  await expect(stranger.getByText(/already been used/)).toBeVisible();
  await expect(stranger.getByRole("button", { name: "Join the team" })).toHaveCount(0);
  await stranger.context().close();
});

test("the clerk works: adds a plant, makes an API token, and changes their password", async () => {
  await clerk.goto("/plants/new");
  await clerk.getByLabel("Id").fill("9007199254740993");
  await clerk.getByLabel("Name").fill("Monstera deliciosa");
  await clerk.getByRole("button", { name: "Add plant" }).click();
  await expect(clerk.getByRole("status")).toHaveText("Saved Monstera deliciosa with id 9007199254740993.");

  await clerk.goto("/tokens");
  await clerk.getByLabel("Label").fill("till sync");
  await clerk.getByRole("checkbox", { name: "plants:write" }).check();
  await clerk.getByRole("button", { name: "Create token" }).click();
  clerkToken = await clerk.getByLabel("New API token").inputValue();
  expect((await createPlantWith(clerkToken, 1)).status).toBe(200);

  await clerk.goto("/account");
  await clerk.getByLabel("Current password", { exact: true }).fill(FIRST_PASSWORD);
  await clerk.getByLabel("New password").fill(SECOND_PASSWORD);
  await clerk.getByRole("button", { name: "Change password" }).click();
  await expect(clerk.getByText("Your password is changed.", { exact: false })).toBeVisible();
  await clerk.goto("/");
  await expect(clerk.getByRole("heading", { name: "Plants" })).toBeVisible();
});

test("the owner makes the clerk an owner and staff again; the clerk's menu follows on their next page", async () => {
  await owner.goto("/team");
  await owner.getByRole("button", { name: `Make owner ${CLERK.name}` }).click();
  await expect(owner.getByText(`${CLERK.name} is now an owner.`)).toBeVisible();
  await clerk.goto("/team");
  await expect(clerk.getByRole("heading", { name: "Team" })).toBeVisible();

  await owner.getByRole("button", { name: `Make staff ${CLERK.name}` }).click();
  await expect(owner.getByText(`${CLERK.name} is now staff.`)).toBeVisible();
  const refused = await clerk.goto("/team");
  expect(refused?.status()).toBe(404);
});

test("deactivating ends the clerk's open session and refuses their token on the next request; reactivating restores the token", async ({ browser }) => {
  await owner.getByRole("button", { name: `Deactivate ${CLERK.name}` }).click();
  await owner.getByRole("dialog", { name: `Deactivate ${CLERK.name}?` }).getByRole("button", { name: "Yes, deactivate" }).click();
  await expect(owner.getByText(`Deactivated ${CLERK.name}`)).toBeVisible();

  await clerk.goto("/tokens");
  await expect(clerk).toHaveURL(/\/sign-in\?callbackUrl=%2Ftokens$/);
  expect(await createPlantWith(clerkToken, 2)).toEqual({
    status: 401,
    body: { error: 401, message: "the bearer token's account is deactivated" },
  });
  // Nor can they sign in again.
  await signIn(clerk, CLERK.email, SECOND_PASSWORD);
  await expect(clerk.getByRole("alert").filter({ hasText: /./ })).toHaveText("That email and password do not match an account.");

  await owner.getByRole("button", { name: `Reactivate ${CLERK.name}` }).click();
  await expect(owner.getByText(`Reactivated ${CLERK.name}: they can sign in again.`)).toBeVisible();
  expect((await createPlantWith(clerkToken, 3)).status).toBe(200);
  const again = await signedIn(browser, CLERK.email, SECOND_PASSWORD);
  await again.context().close();
});

test("the owner resets the clerk's password by email; the link sets a new one once, and the old one stops working", async ({ browser }) => {
  await owner.goto("/team");
  await owner.getByRole("button", { name: `Password reset link for ${CLERK.name}` }).click();
  await expect(owner.getByText(`We also emailed it to ${CLERK.email}.`)).toBeVisible();
  const mail = await smtp.nextMailTo(CLERK.email);
  expect(mail.subject).toBe("Reset your Plant Store password");
  const link = linkIn(mail.text, "/reset-password");
  expect(await owner.getByLabel(`Password reset link for ${CLERK.email}`).inputValue()).toBe(link);

  const elsewhere = await signedIn(browser, CLERK.email, SECOND_PASSWORD);
  await clerk.goto(link);
  await clerk.getByLabel("New password").fill(THIRD_PASSWORD);
  await clerk.getByRole("button", { name: "Set new password" }).click();
  await expect(clerk.getByRole("banner").getByText(`${CLERK.name} (staff)`)).toBeVisible();
  // The reset ended the session signed in with the old password: its plant list, which follows changes, goes to sign-in by itself (issue 44).
  await expect(elsewhere).toHaveURL(/\/sign-in/);
  await signIn(elsewhere, CLERK.email, SECOND_PASSWORD);
  await expect(elsewhere.getByRole("alert").filter({ hasText: /./ })).toHaveText("That email and password do not match an account.");
  await elsewhere.context().close();

  await clerk.goto(link);
  await expect(clerk.getByText(/already been used/)).toBeVisible();
});

test("the last active owner cannot make themself staff or deactivate themself", async () => {
  await owner.goto("/team");
  const refusal = `${OWNER.email} is the only active owner: make another owner first.`;
  await owner.getByRole("button", { name: `Make staff ${OWNER.name}` }).click();
  await expect(owner.getByRole("alert").filter({ hasText: refusal })).toBeVisible();
  await owner.getByRole("button", { name: `Deactivate ${OWNER.name}` }).click();
  await owner.getByRole("dialog", { name: `Deactivate ${OWNER.name}?` }).getByRole("button", { name: "Yes, deactivate" }).click();
  await expect(owner.getByRole("alert").filter({ hasText: refusal })).toBeVisible();
  await owner.goto("/team");
  await expect(owner.getByRole("heading", { name: "Team" })).toBeVisible();
});

test("with the mail server down, an invitation is still made and shown, and the owner is told the email was not sent", async () => {
  await smtp.close();
  await owner.goto("/team");
  await owner.getByLabel("Email").fill("dana@cycle.example");
  await owner.getByRole("button", { name: "Invite" }).click();
  await expect(owner.getByText("The email could not be sent: the mail server could not be reached. Send the link yourself.")).toBeVisible();
  const link = await owner.getByLabel("Invitation link for dana@cycle.example").inputValue();
  const invitee = await (await owner.context().browser()!.newContext({ baseURL: app.url })).newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: "Join Plant Store" })).toBeVisible();
  await Promise.all([invitee.context().close(), owner.context().close(), clerk.context().close()]);
});

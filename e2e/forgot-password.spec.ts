import { type AppServer, freePort, startApp } from "../test/support/app-server";
import { runCli } from "../test/support/cli";
import { startSmtpServer, type SmtpTestServer } from "../test/support/smtp-test-server";
import { expect, expectNoAxeViolations, SIGNED_OUT, test } from "./fixtures";

// "Forgot your password?" (issue 21) needs a mail server, which the lanes'
// apps have not: this spec starts an app of its own, sending to a real SMTP
// server in the test process. The answer is the same words whether or not an
// account has the email; the account's email carries a link that works.

test.use({ storageState: SIGNED_OUT });
// One app for the file's tests, started and stopped in order.
test.describe.configure({ mode: "serial" });

const ACCOUNT = { email: "fern@plants.example", name: "Fern Forgetful", password: "granite meadow lantern 31" };
const NEW_PASSWORD = "willow compass thunder 58";
const ANSWER = "If an account has that email, we have sent it a link to choose a new password. The link works once, for 24 hours.";

let smtp: SmtpTestServer;
let app: AppServer;

test.beforeAll(async () => {
  smtp = await startSmtpServer();
  // Emailed links lead to NEXTAUTH_URL, which email requires: the app's own address here.
  const port = await freePort();
  const env = { SMTP_URL: smtp.url, MAIL_FROM: "Plant Store <plants@shop.example>", NEXTAUTH_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_RESET_REQUEST_ACCOUNT: "2/15m" };
  app = await startApp({ port, env });
  const args = ["create", "--email", ACCOUNT.email, "--name", ACCOUNT.name, "--role", "staff"];
  expect(await runCli("user", args, { database: app.database, stdin: `${ACCOUNT.password}\n` }), "user CLI").toMatchObject({ code: 0 });
});

test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

test("an account's email gets a link that sets a new password and signs in", async ({ page }) => {
  await page.goto(`${app.url}/sign-in`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill("Fern@Plants.example");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("status")).toHaveText(ANSWER);
  await expectNoAxeViolations(page);

  const mail = await smtp.nextMailTo(ACCOUNT.email);
  const link = /https?:\/\/\S+(\/reset-password\/[A-Za-z0-9_-]{43})/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  await page.goto(`${app.url}${link![1]}`);
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(page.getByText(`${ACCOUNT.name} (staff)`)).toBeVisible();
});

test("an email no account has gets the same answer and no email; asking too often is refused", async ({ page }) => {
  await page.goto(`${app.url}/forgot-password`);
  const before = smtp.received.length;
  for (let request = 1; request <= 2; request++) {
    await page.getByLabel("Email").fill("nobody@plants.example");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByRole("status")).toHaveText(ANSWER);
  }
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Too many reset requests. Wait 15 minutes, then try again.");
  expect(smtp.received.length).toBe(before);
});

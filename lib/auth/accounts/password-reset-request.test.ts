import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLink, resetPassword } from "@/lib/auth/accounts/account-links";
import { requestPasswordReset, spendResetRequest } from "@/lib/auth/accounts/password-reset-request";
import { deactivateUser } from "@/lib/auth/accounts/team";
import { authenticate, createUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { closeRateLimits } from "@/lib/http/rate-limit";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { startSmtpServer, type SmtpTestServer } from "@/test/support/smtp-test-server";
import { TEST_BY } from "@/test/support/test-attribution";

// "Forgot your password?" on a real database of the run's engine, emailing
// through a real SMTP server: an active account is sent a link that works
// once; an unknown or deactivated one is sent nothing; and asking is limited
// per address and per email typed.

let smtp: SmtpTestServer;

// Before setUpTestDatabase's hook, which is the first to read the configuration.
beforeAll(async () => {
  smtp = await startSmtpServer();
});

setUpTestDatabase({
  env: () => ({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Plant Store <plants@shop.example>",
    NEXTAUTH_URL: "https://plants.shop.example",
    RATE_LIMIT_RESET_REQUEST_ADDRESS: "4/15m",
    RATE_LIMIT_RESET_REQUEST_ACCOUNT: "2/15m",
  }),
});

// After hooks run last first: the counters' connections close before the database is dropped.
afterAll(async () => {
  await closeRateLimits();
  await smtp.close();
});

const PASSWORD = "mossy granite kettle 42";
const NEW_PASSWORD = "quiet lantern orchard 77";

/** The secret of the one reset link in an email's text. */
function emailedSecret(text: string): string {
  const links = [...text.matchAll(/https?:\/\/\S+\/reset-password\/([A-Za-z0-9_-]{43})(?=\s|$)/g)];
  expect(links).toHaveLength(1);
  return links[0]![1]!;
}

describe("requestPasswordReset", () => {
  it("emails the active account a link whose secret opens as valid, once", async () => {
    const user = await createUser({ email: "ivy@example.com", name: "Ivy", role: "staff", password: PASSWORD }, TEST_BY);
    // As typed on the form: the account is found whatever the case.
    await requestPasswordReset("Ivy@Example.com", null);
    const mail = await smtp.nextMailTo("ivy@example.com");
    expect(mail.subject).toBe("Reset your Plant Store password");
    const secret = emailedSecret(mail.text);

    expect(await openLink("password_reset", secret)).toMatchObject({ state: "valid", link: { email: "ivy@example.com", userId: user.id } });
    await resetPassword(secret, NEW_PASSWORD, null);
    expect(await authenticate("ivy@example.com", NEW_PASSWORD, null)).toMatchObject({ id: user.id });
    expect(await openLink("password_reset", secret)).toEqual({ state: "used" });
  });

  it("replaces the link an earlier request sent", async () => {
    await createUser({ email: "twice@example.com", name: "Twice", role: "staff", password: PASSWORD }, TEST_BY);
    await requestPasswordReset("twice@example.com", null);
    const first = emailedSecret((await smtp.nextMailTo("twice@example.com")).text);
    await requestPasswordReset("twice@example.com", null);
    const second = emailedSecret((await smtp.nextMailTo("twice@example.com")).text);
    expect(await openLink("password_reset", first)).toEqual({ state: "withdrawn" });
    expect(await openLink("password_reset", second)).toMatchObject({ state: "valid" });
  });

  it("sends nothing and makes no link for an email no account has, or a deactivated account", async () => {
    const gone = await createUser({ email: "gone@example.com", name: "Gone", role: "staff", password: PASSWORD }, TEST_BY);
    await deactivateUser(gone.id, TEST_BY);
    const before = smtp.received.length;
    await requestPasswordReset("nobody@example.com", null);
    await requestPasswordReset("gone@example.com", null);
    expect(smtp.received.length).toBe(before);
    expect(await db().accountLink.count({ where: { email: { in: ["nobody@example.com", "gone@example.com"] } } })).toBe(0);
  });

  it("never throws: a mail server that refuses is logged, not raised", async () => {
    await createUser({ email: "refused@example.com", name: "Refused", role: "staff", password: PASSWORD }, TEST_BY);
    smtp.refuse = true;
    try {
      await expect(requestPasswordReset("refused@example.com", null)).resolves.toBeUndefined();
    } finally {
      smtp.refuse = false;
    }
  });
});

describe("spendResetRequest", () => {
  it("admits as many requests per email as its allowance, whoever asks and however it is typed, then says how long to wait", async () => {
    expect(await spendResetRequest("198.51.100.1", "limited@example.com")).toBeUndefined();
    expect(await spendResetRequest("198.51.100.2", " Limited@Example.com")).toBeUndefined();
    const wait = await spendResetRequest("198.51.100.3", "limited@example.com");
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // Another email, from the same address, is still admitted.
    expect(await spendResetRequest("198.51.100.3", "other@example.com")).toBeUndefined();
  });

  it("admits as many requests per address as its allowance, whatever the emails", async () => {
    for (let request = 1; request <= 4; request++) expect(await spendResetRequest("198.51.100.9", `guess${request}@example.com`)).toBeUndefined();
    expect(await spendResetRequest("198.51.100.9", "guess5@example.com")).toBeGreaterThan(14 * 60);
    // The refusal counted nothing against that email.
    expect(await spendResetRequest("198.51.100.10", "guess5@example.com")).toBeUndefined();
    expect(await spendResetRequest("198.51.100.10", "guess5@example.com")).toBeUndefined();
  });
});

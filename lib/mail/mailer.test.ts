import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendMail } from "@/lib/mail/mailer";
import { startSmtpServer, type SmtpTestServer } from "@/test/support/smtp-test-server";

// The mailer against a real SMTP server in this process: a message arrives as
// sent, and a server that refuses or is down is a reason, never a throw.

let smtp: SmtpTestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  vi.stubEnv("SMTP_URL", smtp.url);
  vi.stubEnv("MAIL_FROM", "Plant Store <plants@shop.example>");
  vi.stubEnv("NEXTAUTH_URL", "https://plants.shop.example");
});

afterAll(async () => {
  await smtp.close();
});

const MAIL = { to: "ivy@example.com", subject: "Hello", text: "A line\nand a link: https://plants.example/join/abc" };

describe("sendMail", () => {
  it("delivers a plain-text message from MAIL_FROM to its address", async () => {
    expect(await sendMail("test", MAIL)).toEqual({ sent: true });
    const mail = await smtp.nextMailTo("ivy@example.com");
    expect(mail).toMatchObject({ from: "plants@shop.example", to: ["ivy@example.com"], subject: "Hello" });
    expect(mail.text.trim()).toBe(MAIL.text);
  });

  it("says the server refused the message, with its answer, when it does", async () => {
    smtp.refuse = true;
    try {
      const outcome = await sendMail("test", MAIL);
      expect(outcome).toEqual({ sent: false, reason: expect.stringMatching(/^the mail server refused the message: it answered “550 .*refused by the test server”$/) });
    } finally {
      smtp.refuse = false;
    }
  });

  it("says the server could not be reached when nothing listens", async () => {
    await smtp.close();
    expect(await sendMail("test", MAIL)).toEqual({ sent: false, reason: "the mail server could not be reached" });
  });
});

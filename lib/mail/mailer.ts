import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { processGlobal } from "@/lib/server/process-global";

// The app's email, through nodemailer to SMTP_URL, from MAIL_FROM. Optional:
// without SMTP_URL nothing is sent, and whoever made a link is shown it. A
// message either goes or fails with a reason fit to show an owner; sending
// never throws, so a mail server that is down or refuses loses nothing the
// caller made.

export type Mail = { to: string; subject: string; text: string };

/** Sent, or why not: a sentence for the owner, naming the mail server's answer but never the message. */
export type MailOutcome = { sent: true } | { sent: false; reason: string };

// nodemailer waits two minutes for a silent server by default; a page waits on
// this, so a server that does not answer is given up on after some seconds.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function mailConfigured(): boolean {
  return env().mail !== null;
}

function transport(): Transporter | null {
  const mail = env().mail;
  if (!mail) return null;
  return processGlobal("mail.transport", () => nodemailer.createTransport(mail.smtpUrl, { from: mail.from, ...TIMEOUTS }));
}

/** Sends `mail` as plain text. `purpose` names it in the log (never the body: it may hold a one-time link). */
export async function sendMail(purpose: string, mail: Mail): Promise<MailOutcome> {
  const sender = transport();
  if (!sender) return { sent: false, reason: "no mail server is configured (SMTP_URL)" };
  try {
    await sender.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
    return { sent: true };
  } catch (error) {
    const reason = failureReason(error);
    log.warn("an email could not be sent", { purpose, reason });
    return { sent: false, reason };
  }
}

/** nodemailer's error codes, said for a person; the server's own answer is kept when it gave one. */
function failureReason(error: unknown): string {
  const failure = error as { code?: string; response?: string; message?: string };
  const answer = failure.response ? `: it answered “${failure.response.slice(0, 200)}”` : "";
  switch (failure.code) {
    case "ECONNECTION":
    case "ETIMEDOUT":
    case "ESOCKET":
    case "EDNS":
      return "the mail server could not be reached";
    case "EAUTH":
      return `the mail server refused the app's sign-in${answer}`;
    case "EENVELOPE":
    case "EMESSAGE":
      return `the mail server refused the message${answer}`;
    default:
      return `the mail server failed${answer || (failure.code ? ` (${failure.code})` : "")}`;
  }
}

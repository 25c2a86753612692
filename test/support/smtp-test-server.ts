import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { HANG_GUARD_MS } from "./hang-guard";

// A real SMTP server inside the test process (smtp-server): the app sends to
// it through SMTP_URL as it would to the store's mail provider, and the test
// reads what arrived, parsed (mailparser). It can refuse every message, as a
// full mailbox or a blocked sender would, and stop, as a server that is down.

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string };

export type SmtpTestServer = {
  /** For SMTP_URL: smtp://127.0.0.1:<port>. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** While true, every message is refused with a 550. */
  refuse: boolean;
  /** The first message to `to` that arrives (or has arrived), newest first once waited for. */
  nextMailTo(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const waiting = new Set<() => void>();
  const state: SmtpTestServer = {
    url: "",
    port: 0,
    received,
    refuse: false,
    nextMailTo: (to, timeoutMs = HANG_GUARD_MS) => waitForMail(to.toLowerCase(), timeoutMs),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const taken = new Set<ReceivedMail>();

  const server = new SMTPServer({
    // Plain SMTP on loopback, any sign-in accepted: what the app's side does is the test's subject.
    secure: false,
    hideSTARTTLS: true,
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData(stream, session, callback) {
      if (state.refuse) {
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("5.7.1 Message refused by the test server"), { responseCode: 550 })));
        return;
      }
      simpleParser(stream)
        .then((parsed: ParsedMail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          });
          for (const wake of waiting) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });

  function waitForMail(to: string, timeoutMs: number): Promise<ReceivedMail> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const mail = received.find((candidate) => !taken.has(candidate) && candidate.to.includes(to));
        if (!mail) return false;
        taken.add(mail);
        waiting.delete(wake);
        clearTimeout(timer);
        resolve(mail);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        waiting.delete(wake);
        reject(new Error(`no email to ${to} arrived within ${timeoutMs} ms (${received.length} arrived in all)`));
      }, timeoutMs);
      if (!check()) waiting.add(wake);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

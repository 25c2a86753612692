import { randomUUID } from "node:crypto";
import { generateSync } from "otplib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { confirmAuthenticatorApp } from "@/test/support/authenticator-app";
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/second-factors/recovery-codes";
import { type AppServer, startApp } from "@/test/support/app-server";
import { makeAccount } from "@/test/support/accounts";
import { codeTicket, errorOf, signInThrough } from "@/test/support/next-auth-sign-in";
import { sqlTime } from "@/test/support/webhook-endpoints";

// Nothing of a second factor reaches the log (issue 24): an app logging at
// debug, through sign-ins with a wrong code, a right one, a reused one and a
// recovery code, writes none of the seed, the codes, the recovery code, the
// password or the sign-in ticket.

const PASSWORD = "correct horse battery staple";

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ env: { LOG_LEVEL: "debug" } });
});

afterAll(async () => {
  await app?.stop();
});

it("logs no seed, code, recovery code, password or ticket of a sign-in with a second factor", async () => {
  const email = `secret.${randomUUID()}@plants.example`;
  const userId = await makeAccount(app.database, { email, role: "staff", password: PASSWORD });
  const seed = await confirmAuthenticatorApp(app.database, email);
  const confirmedAt = sqlTime(app.database, new Date(Date.now() - 60_000));
  const [recoveryCode] = generateRecoveryCodes();
  await app.database.query("INSERT INTO recovery_codes (id, user_id, code_hash, created_at) VALUES ($1, $2, $3, $4)", [randomUUID(), userId, hashRecoveryCode(normalizeRecoveryCode(recoveryCode!)!), confirmedAt]);

  const ticketOf = () => codeTicket(app.url, email, PASSWORD);
  const ticket = await ticketOf();
  const code = generateSync({ secret: seed });
  const wrong = code === "000000" ? "111111" : "000000";
  expect(errorOf(await signInThrough(app.url, "code", { ticket, code: wrong }))).toBe("wrong-code");
  expect((await signInThrough(app.url, "code", { ticket, code })).sessionToken).toBeDefined();
  expect(errorOf(await signInThrough(app.url, "code", { ticket, code }))).toBe("wrong-code");
  const secondTicket = await ticketOf();
  expect((await signInThrough(app.url, "code", { ticket: secondTicket, code: recoveryCode! })).sessionToken).toBeDefined();

  // The sign-ins happened, as the activity record says (the log holds what the app wrote meanwhile, at debug).
  const records = await app.database.query<{ action: string }>("SELECT action FROM activity WHERE subject_id = $1 AND action LIKE 'sign_in.%' ORDER BY id", [userId]);
  expect(records.map((record) => record.action)).toEqual(["sign_in.failed", "sign_in.succeeded", "sign_in.failed", "sign_in.succeeded"]);
  const log = app.output();
  expect(log).toContain('"message":"listening"');
  for (const secret of [seed, code, recoveryCode!, recoveryCode!.replace(/-/g, ""), PASSWORD, ticket, secondTicket]) expect(log).not.toContain(secret);
});

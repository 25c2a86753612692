import { randomUUID } from "node:crypto";
import { decode } from "next-auth/jwt";
import { generateSync } from "otplib";
import { beforeAll, describe, expect, it } from "vitest";
import { confirmAuthenticatorApp } from "@/test/support/authenticator-app";
import { makeAccount } from "@/test/support/accounts";
import { codeTicket, errorOf, signInThrough } from "@/test/support/next-auth-sign-in";
import { type SharedApp, sharedApp } from "@/test/support/shared-app";
import { appAuthSecret } from "@/test/support/webhook-endpoints";

// Sign-in's second step through next-auth's own endpoints, against the built
// app (issue 24): for a person with an authenticator app, the right password
// answers a ticket and no session; a wrong password and an unknown email
// answer alike; the ticket and a code make a session whose token says it
// passed a code (factor), and the same code again is refused. On the app the
// HTTP files share: this file's accounts have emails of their own.

const PASSWORD = "correct horse battery staple";

let app: SharedApp;
let email: string;
let userId: string;
let seed: string;

beforeAll(async () => {
  app = sharedApp();
  email = `coder.${randomUUID()}@plants.example`;
  userId = await makeAccount(app.database, { email, role: "staff", password: PASSWORD });
  seed = await confirmAuthenticatorApp(app.database, email);
});

const post = (provider: string, values: Record<string, string>) => signInThrough(app.url, provider, values);

describe("signing in with a code", () => {
  it("answers a ticket, not a session, for the right password, and the same for a wrong password as for an unknown email", async () => {
    const right = await post("credentials", { email, password: PASSWORD });
    expect(right.sessionToken).toBeUndefined();
    expect(errorOf(right)).toMatch(/^code-needed:v1\.[\w-]+\.[\w-]+\.[\w-]+$/);

    const wrong = await post("credentials", { email, password: "not the password at all" });
    const unknown = await post("credentials", { email: `nobody.${randomUUID()}@plants.example`, password: PASSWORD });
    expect(wrong).toEqual(unknown);
    expect(errorOf(wrong)).toBe("CredentialsSignin");
  });

  it("signs in with the ticket and a code, once: the session's token says a code was passed", async () => {
    const ticket = await codeTicket(app.url, email, PASSWORD);
    const code = generateSync({ secret: seed });
    const signedIn = await post("code", { ticket, code });
    expect(signedIn.sessionToken).toBeDefined();
    const claims = await decode({ token: signedIn.sessionToken!, secret: appAuthSecret(app.database) });
    expect(claims).toMatchObject({ sub: userId, factor: "totp", signedInAt: expect.any(Number) });

    const again = await post("code", { ticket, code });
    expect(again.sessionToken).toBeUndefined();
    expect(errorOf(again)).toBe("wrong-code");
    expect(errorOf(await post("code", { ticket: "v1.not.a.ticket", code }))).toBe("challenge-expired");

    const records = await app.database.query<{ action: string; changes: string }>(
      "SELECT action, changes FROM activity WHERE subject_kind = 'account' AND subject_id = $1 AND action LIKE 'sign_in.%' ORDER BY id",
      [userId],
    );
    expect(records.slice(-2).map((record) => [record.action, JSON.parse(record.changes)])).toEqual([
      ["sign_in.succeeded", { after: { factor: "totp" } }],
      ["sign_in.failed", { after: { email, reason: "wrong code" } }],
    ]);
    expect(JSON.stringify(await app.database.query("SELECT changes FROM activity"))).not.toContain(code);
  });
});

import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmAuthenticatorApp } from "@/test/support/authenticator-app";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { makeAccount } from "@/test/support/accounts";
import { revokeApiTokens } from "@/test/support/api-tokens";
import { runCli } from "@/test/support/cli";
import { codeTicket, signInThrough } from "@/test/support/next-auth-sign-in";
import { type Answer, distinctWorkers, sendEach } from "@/test/support/worker-requests";

// One `npm start` with two workers (issue 25): a credential taken back is
// refused on the very next request whichever worker gets it. Each worker
// keeps what it may (a token's decryption, SQLite's answers until the
// database changes), so each case is first accepted by both workers, then
// changed from outside the app (the CLIs, or the database itself), then
// refused by both. Each request goes on a connection of its own, which the
// primary hands to the next worker; the request log says which answered.

const PASSWORD = "correct horse battery staple";
// Staff, whose sessions and tokens are taken back below; the owner is there because the last active owner
// cannot be deactivated.
const OWNER = "olive@plants.example";
const DEACTIVATED = "sam@plants.example";
const SESSIONS_ENDED = "reese@plants.example";

let app: AppServer;

beforeAll(async () => {
  // Refused requests spend the client address's allowance (RATE_LIMIT_ANONYMOUS), and every request here comes
  // from 127.0.0.1: off, so that a refusal is always the credential's 401, never a 429.
  app = await startApp({ env: { WEB_CONCURRENCY: "2", RATE_LIMIT_ANONYMOUS: "off" } });
  for (const [email, role] of [
    [OWNER, "owner"],
    [DEACTIVATED, "staff"],
    [SESSIONS_ENDED, "staff"],
  ] as const) {
    await makeAccount(app.database, { email, role, password: PASSWORD });
  }
});

afterAll(async () => {
  await app?.stop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
// A staff session is accepted on the API from the app's own pages only: the browser says so.
const session = (sessionToken: string) => ({ cookie: `next-auth.session-token=${sessionToken}`, "sec-fetch-site": "same-origin" });

/** Six reads, each on a connection of its own. */
const listSix = (headers: Record<string, string>) => sendEach(6, `${app.url}/plants?limit=1`, { headers });

async function expectAcceptedByBoth(headers: Record<string, string>): Promise<void> {
  const answers = await listSix(headers);
  expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
  expect(await distinctWorkers(app, answers)).toEqual([0, 1]);
}

async function expectRefusedByBoth(headers: Record<string, string>, message: string): Promise<void> {
  const answers = await listSix(headers);
  expect(answers.map(statusAndBody)).toEqual(Array(6).fill({ status: 401, body: { error: 401, message } }));
  expect(await distinctWorkers(app, answers)).toEqual([0, 1]);
}

const statusAndBody = (answer: Answer) => ({ status: answer.status, body: JSON.parse(answer.body) as unknown });

async function signIn(email: string): Promise<string> {
  const answer = await signInThrough(app.url, "credentials", { email, password: PASSWORD });
  expect(answer.sessionToken, `${email} signed in`).toBeDefined();
  return answer.sessionToken!;
}

async function user(args: string[]): Promise<void> {
  const run = await runCli("user", args, { database: app.database });
  expect(run.code, run.stderr).toBe(0);
}

describe("two workers of one server refuse, on the very next request to either", () => {
  // Revoked as `token revoke` does (test/http/create-plant.test.ts revokes through the CLI itself).
  it("a revoked token", async () => {
    const token = await createToken(app.database, ["plants:read"], "1h", "revoked");
    await expectAcceptedByBoth(bearer(token));
    await revokeApiTokens(app.database, "revoked");
    await expectRefusedByBoth(bearer(token), "the bearer token has been revoked");
  });

  it("a token whose record has expired", async () => {
    const token = await createToken(app.database, ["plants:read"], "1h", "expiring");
    await expectAcceptedByBoth(bearer(token));
    // ISO text: SQLite stores it so, and PostgreSQL reads it into its UTC timestamp column.
    await app.database.query("UPDATE api_tokens SET expires_at = $1 WHERE label = 'expiring'", [new Date(Date.now() - 1).toISOString()]);
    await expectRefusedByBoth(bearer(token), "the bearer token has expired");
  });

  it("a deactivated account's token and session, and takes both again once it is reactivated", async () => {
    const token = await createToken(app.database, ["plants:read"], "1h", "deactivated's");
    // Owned as a token made on the Tokens page is: by its maker.
    await app.database.query("UPDATE api_tokens SET owner_id = (SELECT id FROM users WHERE email = $1) WHERE label = $2", [DEACTIVATED, "deactivated's"]);
    const sessionToken = await signIn(DEACTIVATED);
    await expectAcceptedByBoth(bearer(token));
    await expectAcceptedByBoth(session(sessionToken));

    await user(["deactivate", DEACTIVATED]);
    await expectRefusedByBoth(bearer(token), "the bearer token's account is deactivated");
    await expectRefusedByBoth(session(sessionToken), "authentication required: send Authorization: Bearer <token>");

    // The token was refused for its owner's state, which each worker reads anew: it works again at once.
    await user(["reactivate", DEACTIVATED]);
    await expectAcceptedByBoth(bearer(token));
  });

  it("a staff session whose account's sessions were all ended (the user CLI's reset-factors), and takes a new sign-in", async () => {
    // reset-factors ends the sessions of an account that has a second factor: an authenticator app.
    const seed = await confirmAuthenticatorApp(app.database, SESSIONS_ENDED);
    const ticket = await codeTicket(app.url, SESSIONS_ENDED, PASSWORD);
    const withCode = await signInThrough(app.url, "code", { ticket, code: generateSync({ secret: seed }) });
    expect(withCode.sessionToken).toBeDefined();
    const ended = withCode.sessionToken!;
    await expectAcceptedByBoth(session(ended));

    await user(["reset-factors", SESSIONS_ENDED]);
    await expectRefusedByBoth(session(ended), "authentication required: send Authorization: Bearer <token>");
    // The account itself still signs in (with its password alone now), and its new session works everywhere.
    await expectAcceptedByBoth(session(await signIn(SESSIONS_ENDED)));
  });
});

import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { decode } from "next-auth/jwt";
import { generateSync } from "otplib";
import { makeAccount } from "@/test/support/accounts";
import { confirmAuthenticatorApp } from "@/test/support/authenticator-app";
import { errorOf, signInThrough } from "@/test/support/next-auth-sign-in";
import { makeSoftwarePasskey, signAssertion } from "@/test/support/software-authenticator";
import { type AppServer, freePort, startApp } from "@/test/support/app-server";
import { type OidcTestProvider, startOidcProvider, type TestIdentity } from "@/test/support/oidc-test-provider";
import { authorizeAtProvider, type CallbackAnswer, finishSsoSignIn, landingOf, sessionEmail, signInWithSso, startSsoSignIn } from "@/test/support/single-sign-on-flow";
import { appAuthSecret, sqlTime } from "@/test/support/webhook-endpoints";

// Single sign-on with the store's OpenID Connect provider (issue 34), against
// the built app and a real provider in the test process: a verified email of
// an active account signs in, and the provider's subject finds that account
// again after its email changed there. Everything else is refused with a
// redirect to the sign-in page, no session, and nothing written: what the app
// decides (an unverified email, a domain not allowed, a deactivated account)
// with the app's own error code; what next-auth checks (state, a replayed
// code, the nonce, the ID token's signature and audience, a provider that is
// down) with next-auth's. The app never answers 5xx. An app of its own: it
// needs the provider's settings, and counts every account and identity.

const ALLOWED_DOMAIN = "staff.example";
const PASSWORD = "correct horse battery staple";

let app: AppServer;
let provider: OidcTestProvider;

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({ redirectUris: [`${url}/api/auth/callback/oidc`] });
  app = await startApp({
    port,
    env: {
      NEXTAUTH_URL: url,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: "Sign in with the test provider",
      OIDC_ALLOWED_DOMAINS: ALLOWED_DOMAIN,
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await provider?.close();
});

afterEach(() => {
  if (!provider) return;
  provider.tamperIdToken(undefined);
  provider.down = false;
});

type Claims = Record<string, unknown>;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A staff account of its own and the provider's identity for it (a sub of its own, its email verified). */
async function accountWithIdentity(): Promise<{ userId: string; identity: TestIdentity }> {
  const email = `sso.${randomUUID()}@${ALLOWED_DOMAIN}`;
  const userId = await makeAccount(app.database, { email, role: "staff", password: PASSWORD });
  return { userId, identity: { sub: randomUUID(), email, email_verified: true, name: "Sam Staff" } };
}

/** The rows a refused sign-in must leave as they were. */
async function writtenRows() {
  const [users, identities, links] = await Promise.all([
    app.database.query("SELECT id, email, deactivated_at, last_sign_in_at FROM users ORDER BY id"),
    app.database.query("SELECT * FROM sso_identities ORDER BY id"),
    app.database.query("SELECT * FROM account_links ORDER BY id"),
  ]);
  return { users, identities, links };
}

const identitiesOf = (userId: string) => app.database.query<{ issuer: string; subject: string; user_id: string }>("SELECT issuer, subject, user_id FROM sso_identities WHERE user_id = $1", [userId]);

/**
 * The app's answers of 5xx, errors it did not handle, and lines logged as errors, which no sign-in may
 * cause, refused or not: what anyone can send is a warning. A provider that cannot be reached to start a
 * sign-in is the one error here (the operator's to mend).
 */
const serverErrors = () =>
  app
    .output()
    .split("\n")
    .filter((line) => /"status":5\d\d|"message":"unhandled error"|"level":"error"/.test(line) && !line.includes("next-auth: SIGNIN_OAUTH_ERROR"));

/** A refusal: back to the sign-in page with ?error= (`code` when the app's own), no session, and a page that answers. */
async function expectRefused(answer: Pick<CallbackAnswer, "location" | "sessionToken"> & { status?: number }, code?: string): Promise<void> {
  if (answer.status !== undefined) expect(answer.status).toBe(302);
  const location = new URL(answer.location);
  expect(`${location.origin}${location.pathname}`).toBe(`${app.url}/sign-in`);
  const error = location.searchParams.get("error");
  if (code === undefined) expect(error).toMatch(/^\S+$/);
  else expect(error).toBe(code);
  expect(answer.sessionToken).toBeUndefined();
  const page = await fetch(answer.location);
  await page.arrayBuffer();
  expect(page.status).toBe(200);
  expect(serverErrors()).toEqual([]);
}

describe("single sign-on", () => {
  it("signs a verified email of an active account in, and links the provider's subject to the account", async () => {
    const { userId, identity } = await accountWithIdentity();
    provider.signInAs(identity);

    const answer = await signInWithSso(app.url);

    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${app.url}/plants`);
    expect(answer.sessionToken).toBeDefined();
    expect(await sessionEmail(app.url, answer.sessionToken!)).toBe(identity.email);
    expect(await identitiesOf(userId)).toEqual([{ issuer: provider.issuer, subject: identity.sub, user_id: userId }]);
    expect(serverErrors()).toEqual([]);
  });

  it("finds the account by the provider's subject after its email changed at the provider", async () => {
    const { userId, identity } = await accountWithIdentity();
    provider.signInAs(identity);
    expect((await signInWithSso(app.url)).sessionToken).toBeDefined();

    provider.signInAs({ ...identity, email: `renamed.${randomUUID()}@${ALLOWED_DOMAIN}` });
    const answer = await signInWithSso(app.url);

    expect(answer.location).toBe(`${app.url}/plants`);
    expect(await sessionEmail(app.url, answer.sessionToken!)).toBe(identity.email);
    expect(await identitiesOf(userId)).toEqual([{ issuer: provider.issuer, subject: identity.sub, user_id: userId }]);
  });

  it("asks a person with an authenticator app for a code, unless the provider's amr says it asked for a second factor", async () => {
    const { userId, identity } = await accountWithIdentity();
    const seed = await confirmAuthenticatorApp(app.database, identity.email);

    provider.signInAs({ ...identity, amr: ["pwd"] });
    const withoutFactor = await signInWithSso(app.url);
    expect(withoutFactor.sessionToken).toBeUndefined();
    const ticket = new URL(withoutFactor.location).searchParams.get("code");
    expect(ticket).toMatch(/^v1\./);
    const coded = await signInThrough(app.url, "code", { ticket: ticket!, code: generateSync({ secret: seed }) });
    expect(await decode({ token: coded.sessionToken!, secret: appAuthSecret(app.database) })).toMatchObject({ sub: userId, factor: "totp" });

    provider.signInAs({ ...identity, amr: ["pwd", "mfa"] });
    const withFactor = await signInWithSso(app.url);
    expect(withFactor.location).toBe(`${app.url}/plants`);
    expect(await decode({ token: withFactor.sessionToken!, secret: appAuthSecret(app.database) })).toMatchObject({ sub: userId, factor: "sso_mfa" });
    expect(serverErrors()).toEqual([]);
  });

  it("under single sign-on only, takes a staff member's passkey as the second factor of their own single sign-on, never alone", async () => {
    const { userId, identity } = await accountWithIdentity();
    const passkey = makeSoftwarePasskey(userId);
    const now = sqlTime(app.database, new Date());
    await app.database.query("INSERT INTO passkeys (id, user_id, name, public_key, device_type, backed_up, created_at) VALUES ($1, $2, 'phone', $3, 'singleDevice', $4, $5)", [
      passkey.id,
      userId,
      passkey.publicKey,
      app.database.config.provider === "sqlite" ? 0 : false,
      now,
    ]);
    await app.database.query("INSERT INTO settings (key, value, updated_at) VALUES ('sign_in_methods', 'sso_only', $1)", [now]);
    try {
      let counter = 0;
      /** The passkey's answer to a challenge of its own, posted to next-auth's passkey provider with `cookie`. */
      const passkeySignIn = async (cookie: string) => {
        const challenge = { id: randomUUID(), challenge: randomBytes(32).toString("base64url") };
        const expires = sqlTime(app.database, new Date(Date.now() + 300_000));
        await app.database.query("INSERT INTO webauthn_challenges (id, challenge, purpose, expires_at, created_at) VALUES ($1, $2, 'authentication', $3, $4)", [challenge.id, challenge.challenge, expires, now]);
        const response = signAssertion(passkey, { rpId: new URL(app.url).hostname, origin: app.url, challenge: challenge.challenge, counter: ++counter });
        return signInThrough(app.url, "passkey", { challengeId: challenge.id, response: JSON.stringify(response) }, cookie);
      };
      expect(errorOf(await passkeySignIn(""))).toBe("sso-only");

      provider.signInAs({ ...identity, amr: ["pwd"] });
      const { sessionToken } = await signInWithSso(app.url);
      const afterSso = await passkeySignIn(`next-auth.session-token=${sessionToken}`);
      expect(await decode({ token: afterSso.sessionToken!, secret: appAuthSecret(app.database) })).toMatchObject({ sub: userId, factor: "passkey" });
    } finally {
      await app.database.query("DELETE FROM settings WHERE key = 'sign_in_methods'");
    }
  });

  it("refuses a callback whose state is not the one the sign-in started with", async () => {
    const { identity } = await accountWithIdentity();
    provider.signInAs(identity);
    const before = await writtenRows();
    const { url, appCookies } = await startSsoSignIn(app.url);
    const callback = new URL(await authorizeAtProvider(url, app.url));
    callback.searchParams.set("state", randomUUID());

    await expectRefused(await finishSsoSignIn(callback.href, appCookies));
    expect(await writtenRows()).toEqual(before);
  });

  it("refuses the same callback a second time, and the first one's session still holds", async () => {
    const { identity } = await accountWithIdentity();
    provider.signInAs(identity);
    const { url, appCookies } = await startSsoSignIn(app.url);
    const callback = await authorizeAtProvider(url, app.url);
    const first = await finishSsoSignIn(callback, appCookies);
    expect(first.sessionToken).toBeDefined();
    const before = await writtenRows();

    await expectRefused(await finishSsoSignIn(callback, appCookies));
    expect(await writtenRows()).toEqual(before);
    expect(await sessionEmail(app.url, first.sessionToken!)).toBe(identity.email);
  });

  it("refuses an authorization code used before, with the checks' cookies it had and with a new sign-in's", async () => {
    const { identity } = await accountWithIdentity();
    provider.signInAs(identity);
    const { url, appCookies } = await startSsoSignIn(app.url);
    const callback = await authorizeAtProvider(url, app.url);
    const cookiesAsSent = new Map(appCookies);
    expect((await finishSsoSignIn(callback, appCookies)).sessionToken).toBeDefined();
    const before = await writtenRows();

    // Everything as the first time: only the code's single use can refuse it.
    await expectRefused(await finishSsoSignIn(callback, cookiesAsSent));
    // The code under a new sign-in's state, PKCE verifier and nonce.
    const fresh = await startSsoSignIn(app.url);
    const replay = new URL(callback);
    replay.searchParams.set("state", new URL(fresh.url).searchParams.get("state")!);
    await expectRefused(await finishSsoSignIn(replay.href, fresh.appCookies));
    expect(await writtenRows()).toEqual(before);
  });

  // Each ID token the provider answers, changed and signed again (with its own published key but for `otherKey`).
  it.each([
    { token: "whose nonce does not match the sign-in", change: { claims: (claims: Claims) => ({ ...claims, nonce: randomUUID() }) } },
    { token: "signed with a key the provider does not publish", change: { otherKey: true } },
    { token: "issued to another client", change: { claims: (claims: Claims) => ({ ...claims, aud: "another-client" }) } },
    { token: "issued by another issuer", change: { claims: (claims: Claims) => ({ ...claims, iss: "https://elsewhere.example" }) } },
    { token: "that expired an hour ago", change: { claims: (claims: Claims) => ({ ...claims, iat: nowSeconds() - 7_200, exp: nowSeconds() - 3_600 }) } },
  ])("refuses an ID token $token", async ({ change }) => {
    const { identity } = await accountWithIdentity();
    provider.signInAs(identity);
    provider.tamperIdToken(change);
    const before = await writtenRows();

    await expectRefused(await signInWithSso(app.url));
    expect(await writtenRows()).toEqual(before);
  });

  it("refuses an email the provider has not verified, even an account's", async () => {
    const { identity } = await accountWithIdentity();
    provider.signInAs({ ...identity, email_verified: false });
    const before = await writtenRows();

    await expectRefused(await signInWithSso(app.url), "sso-unverified");
    expect(await writtenRows()).toEqual(before);
  });

  it("refuses a verified email of a domain not allowed, with no account or invitation", async () => {
    provider.signInAs({ sub: randomUUID(), email: `outsider.${randomUUID()}@elsewhere.example`, email_verified: true });
    const before = await writtenRows();

    await expectRefused(await signInWithSso(app.url), "sso-refused");
    expect(await writtenRows()).toEqual(before);
  });

  it("ends a deactivated account's single sign-on session, and refuses it the next", async () => {
    const { userId, identity } = await accountWithIdentity();
    provider.signInAs(identity);
    const { sessionToken } = await signInWithSso(app.url);
    const accountPage = async () => (await fetch(`${app.url}/account`, { redirect: "manual", headers: { cookie: `next-auth.session-token=${sessionToken}` } })).status;
    expect(await accountPage()).toBe(200);
    await app.database.query("UPDATE users SET deactivated_at = $1 WHERE id = $2", [sqlTime(app.database, new Date()), userId]);
    expect(await accountPage()).toBe(307);
    const before = await writtenRows();

    await expectRefused(await signInWithSso(app.url), "sso-deactivated");
    expect(await writtenRows()).toEqual(before);
  });

  it("refuses to start while the provider is down, and to finish when it went down since", async () => {
    const { identity } = await accountWithIdentity();
    provider.signInAs(identity);
    const before = await writtenRows();

    provider.down = true;
    await expectRefused({ location: await landingOf(await startSsoSignIn(app.url)), sessionToken: undefined });

    provider.down = false;
    const started = await startSsoSignIn(app.url);
    const callback = await authorizeAtProvider(started.url, app.url);
    provider.down = true;
    await expectRefused(await finishSsoSignIn(callback, started.appCookies));
    expect(await writtenRows()).toEqual(before);
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, freePort, startApp } from "@/test/support/app-server";
import { makeAccount } from "@/test/support/accounts";
import { waitForLine } from "@/test/support/app-log";
import { signInThrough } from "@/test/support/next-auth-sign-in";
import { sharedApp } from "@/test/support/shared-app";

// A single sign-on that cannot work (issue 34) never stops the app and never
// answers 5xx: one app's issuer is configured but nothing answers there, the
// other's configuration lacks its client. Both start, both sign-in pages keep
// the password and say the company sign-in is unavailable, instead of its
// button, and the log says why; a password still signs in. Where the
// variables are not set, nothing of single sign-on shows.

const ACCOUNT = { email: "pat@shop.example", password: "granite meadow lantern 31" };

let unreachable: AppServer;
let incomplete: AppServer;

beforeAll(async () => {
  const [port, nobody, other] = await Promise.all([freePort(), freePort(), freePort()]);
  const sso = { OIDC_CLIENT_SECRET: "not-logged-anywhere", OIDC_NAME: "Sign in with Shop Workspace" };
  [unreachable, incomplete] = await Promise.all([
    startApp({ port, env: { ...sso, NEXTAUTH_URL: `http://127.0.0.1:${port}`, OIDC_ISSUER: `http://127.0.0.1:${nobody}`, OIDC_CLIENT_ID: "plant-store" } }),
    startApp({ port: other, env: { ...sso, NEXTAUTH_URL: `http://127.0.0.1:${other}`, OIDC_ISSUER: "https://sso.shop.example" } }),
  ]);
  // A store with an account: the sign-in page of one without sends to /setup.
  await Promise.all([unreachable, incomplete].map((app) => makeAccount(app.database, { email: ACCOUNT.email, role: "staff", password: ACCOUNT.password })));
});

afterAll(async () => {
  await Promise.all([unreachable?.stop(), incomplete?.stop()]);
});

/** A page's words as a reader sees them: React's comment markers between a value and the text beside it left out. */
const pageText = async (url: string) => (await (await fetch(url)).text()).replace(/<!-- -->/g, "");

// The app writes a line before it answers, but its pipe may reach this process after the answer: waited for.
const logged = (app: AppServer, message: string) => waitForLine(app.output, (line) => line.message === message);

it("starts with an issuer nobody answers at, logs the redirect URI to register, and offers the password with a notice", async () => {
  expect((await logged(unreachable, "single sign-on")).redirectUri).toBe(`${unreachable.url}/api/auth/callback/oidc`);
  expect((await fetch(`${unreachable.url}/sign-in`)).status).toBe(200);
  const html = await pageText(`${unreachable.url}/sign-in`);
  expect(html).toContain("The company sign-in is unavailable right now. Sign in with your password or a passkey.");
  expect(html).not.toContain(">Sign in with Shop Workspace<");
  expect(html).toContain('id="sign-in-password"');
  const unavailable = await logged(unreachable, "single sign-on is unavailable: the sign-in page offers passwords and passkeys only");
  expect(unavailable.why).toContain(`/.well-known/openid-configuration could not be read`);
  expect((await signInThrough(unreachable.url, "credentials", ACCOUNT)).sessionToken).toBeDefined();
  expect(unreachable.output().split("\n").filter((line) => /"status":5\d\d|"message":"unhandled error"/.test(line))).toEqual([]);
});

it("starts with an incomplete configuration, names what is missing in the log, and never the secret", async () => {
  const html = await pageText(`${incomplete.url}/sign-in`);
  expect(html).toContain("The company sign-in is unavailable right now.");
  const warning = await logged(incomplete, "single sign-on is off: its configuration is incomplete");
  expect(warning.problems).toEqual(["OIDC_CLIENT_ID is not set: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET"]);
  expect(incomplete.output()).not.toContain("not-logged-anywhere");
});

it("shows nothing of single sign-on where its variables are not set", async () => {
  const plain = sharedApp();
  await makeAccount(plain.database, { email: `plain.${randomUUID()}@shop.example`, role: "staff", password: ACCOUNT.password });
  const html = await pageText(`${plain.url}/sign-in`);
  expect(html).toContain('id="sign-in-password"');
  expect(html).not.toMatch(/company sign-in|single sign-on/i);
  const providers = (await (await fetch(`${plain.url}/api/auth/providers`)).json()) as Record<string, unknown>;
  expect(Object.keys(providers)).not.toContain("oidc");
});

import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "@/lib/auth/api-tokens/api-tokens";
import { SECOND_FACTOR_POLICY_KEY } from "@/lib/auth/second-factors/second-factor-policy";
import type { SessionFactor } from "@/lib/auth/session-factor";
import { db } from "@/lib/db/client";
import { authenticateCaller } from "@/lib/auth/sessions/caller";
import { endOtherSessions } from "@/lib/auth/accounts/own-account";
import { deactivateUser, reactivateUser } from "@/lib/auth/accounts/team";
import { createUser } from "@/lib/auth/accounts/users";
import { ApiError } from "@/lib/http/api-error";
import { env } from "@/lib/server/env";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The staff session path of authenticateCaller; the bearer path is covered over HTTP.

const APP = "http://127.0.0.1:3000";
let cookie = "";

setUpTestDatabase();

beforeAll(async () => {
  const user = await createUser({ email: "sam@example.com", name: "Sam", role: "staff", password: "a long passphrase" }, TEST_BY);
  cookie = `next-auth.session-token=${await encode({ token: { sub: user.id }, secret: env().authSecret })}`;
});

function post(headers: Record<string, string>): Request {
  return new Request(`${APP}/plants`, { method: "POST", headers: { host: "127.0.0.1:3000", ...headers } });
}

async function refusal(request: Request): Promise<{ status: number; message: string; challenge?: string }> {
  const error: unknown = await authenticateCaller(request, "plants:write").then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error("expected an ApiError");
  return { status: error.status, message: error.message, challenge: error.extra.headers?.["www-authenticate"] };
}

describe("authenticateCaller with a staff session cookie", () => {
  it("refuses (403) a session the second-factor policy holds, or that did not pass the person's factor", async () => {
    const user = await createUser({ email: "ada@example.com", name: "Ada", role: "staff", password: "a long passphrase" }, TEST_BY);
    const session = async (factor?: SessionFactor) => `next-auth.session-token=${await encode({ token: { sub: user.id, signedInAt: Date.now(), factor }, secret: env().authSecret })}`;
    const sameOrigin = { "sec-fetch-site": "same-origin" };
    try {
      await db().setting.create({ data: { key: SECOND_FACTOR_POLICY_KEY, value: "everyone" } });
      expect(await refusal(post({ cookie: await session("password"), ...sameOrigin }))).toMatchObject({ status: 403, message: expect.stringContaining("requires a second factor") });
      await db().passkey.create({ data: { id: "ada-passkey", userId: user.id, name: "phone", publicKey: "pQECAyYgASFYIA", deviceType: "multiDevice", backedUp: true } });
      expect(await refusal(post({ cookie: await session("password"), ...sameOrigin }))).toMatchObject({ status: 403, message: expect.stringContaining("sign in again") });
      expect(await authenticateCaller(post({ cookie: await session("passkey"), ...sameOrigin }), "plants:write")).toMatchObject({ kind: "staff" });
    } finally {
      await db().setting.deleteMany();
    }
  });

  it("accepts it from the app's own origin", async () => {
    const caller = await authenticateCaller(post({ cookie, "sec-fetch-site": "same-origin" }), "plants:write");
    expect(caller).toMatchObject({ kind: "staff", user: { email: "sam@example.com" } });
    expect(await authenticateCaller(post({ cookie, origin: APP }), "plants:write")).toMatchObject({ kind: "staff" });
  });

  it.each([
    ["another site", { origin: "https://evil.example" }],
    ["the same site on another port", { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:4000" }],
    ["a request with no origin evidence", {}],
  ])("refuses it from %s with 403", async (_, headers) => {
    expect(await refusal(post({ cookie, ...headers }))).toMatchObject({ status: 403, challenge: undefined });
  });

  it("refuses (401) a session whose account is deactivated, or that an \"end every session\" voided", async () => {
    const user = await createUser({ email: "vic@example.com", name: "Vic", role: "staff", password: "a long passphrase" }, TEST_BY);
    const sessionAt = async (signedInAt: number) => `next-auth.session-token=${await encode({ token: { sub: user.id, signedInAt }, secret: env().authSecret })}`;
    const open = await sessionAt(Date.now() - 1000);
    expect(await authenticateCaller(post({ cookie: open, "sec-fetch-site": "same-origin" }), "plants:write")).toMatchObject({ kind: "staff" });

    await deactivateUser(user.id, TEST_BY);
    expect(await refusal(post({ cookie: open, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401 });
    await reactivateUser(user.id, TEST_BY);
    // Deactivating ended the sessions from before it; a later sign-in counts.
    expect(await refusal(post({ cookie: open, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401 });
    const later = await sessionAt(Date.now());
    expect(await authenticateCaller(post({ cookie: later, "sec-fetch-site": "same-origin" }), "plants:write")).toMatchObject({ kind: "staff" });

    const { sessionsValidFrom } = await endOtherSessions({ id: user.id, email: user.email, name: user.name, role: user.role });
    expect(await refusal(post({ cookie: later, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401 });
    const reissued = await sessionAt(sessionsValidFrom.getTime());
    expect(await authenticateCaller(post({ cookie: reissued, "sec-fetch-site": "same-origin" }), "plants:write")).toMatchObject({ kind: "staff" });
  });

  it("ignores the cookie when an Authorization header is present", async () => {
    expect(await refusal(post({ cookie, "sec-fetch-site": "same-origin", authorization: "Basic dTpw" }))).toMatchObject({ status: 401 });
  });

  it("answers 401 with a Bearer challenge for a forged or foreign cookie", async () => {
    const forged = `next-auth.session-token=${await encode({ token: { sub: "x" }, secret: "another secret of at least thirty-two characters" })}`;
    expect(await refusal(post({ cookie: forged, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401, challenge: 'Bearer realm="plant-store"' });
  });

  it("does not take an API token as a session cookie", async () => {
    const { token } = await createApiToken({ label: "t", scopes: ["plants:write"], lifetimeSeconds: 60 }, TEST_BY);
    expect(await refusal(post({ cookie: `next-auth.session-token=${token}`, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401 });
  });
});

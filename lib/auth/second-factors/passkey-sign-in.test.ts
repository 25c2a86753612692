import { describe, expect, it, vi } from "vitest";
import { signInWithPasskey } from "@/lib/auth/second-factors/passkey-sign-in";
import type { RelyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { createUser } from "@/lib/auth/accounts/users";
import { issueChallenge } from "@/lib/auth/second-factors/webauthn-challenges";
import { db } from "@/lib/db/client";
import { SIGN_IN_SSO_ONLY } from "@/lib/validations/user-options";
import { log } from "@/lib/server/log";
import { makeSoftwarePasskey, signAssertion, type SoftwarePasskey } from "@/test/support/software-authenticator";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Signing in with a passkey on a real database of the run's engine, with
// assertions signed in the test as an authenticator signs them: the
// signature counter's rule, the challenge's single use, the origin, the user
// handle, user verification and deactivated accounts.

setUpTestDatabase();

const RP: RelyingParty = { id: "plants.example", origin: "https://plants.example", name: "Plant Store" };
const ORIGIN = { clientAddress: "203.0.113.9", userAgent: "test", requestId: null };

async function personWithPasskey(email: string, counter = 0): Promise<{ userId: string; passkey: SoftwarePasskey }> {
  const user = await createUser({ email, name: "Pat Passkey", role: "staff", password: "mossy granite kettle 42" }, TEST_BY);
  const passkey = makeSoftwarePasskey(user.id);
  await db().passkey.create({
    data: { id: passkey.id, userId: user.id, name: "phone", publicKey: passkey.publicKey, counter: BigInt(counter), deviceType: "singleDevice", backedUp: false },
  });
  return { userId: user.id, passkey };
}

async function tryCounter(passkey: SoftwarePasskey, counter: number, overrides: Partial<Parameters<typeof signAssertion>[1]> = {}, rp = RP) {
  const { id, challenge } = await issueChallenge("authentication", null);
  return signInWithPasskey(id, signAssertion(passkey, { rpId: RP.id, origin: RP.origin, challenge, counter, ...overrides }), rp, ORIGIN);
}

const stored = async (id: string) => db().passkey.findUniqueOrThrow({ where: { id } });

describe("signing in with a passkey", () => {
  it("signs in with a verified assertion, and keeps its counter and when it was used", async () => {
    const { userId, passkey } = await personWithPasskey("ok@example.com");
    const user = await tryCounter(passkey, 7);
    expect(user).toMatchObject({ id: userId, email: "ok@example.com" });
    expect(await stored(passkey.id)).toMatchObject({ counter: 7n, lastUsedAt: expect.any(Date) });
    const record = await db().activity.findFirst({ where: { subjectId: userId, action: "sign_in.succeeded" } });
    expect(record).not.toBeNull();
  });

  it("refuses a counter that does not increase, logs it at warn without secrets, and keeps the stored counter", async () => {
    const { passkey } = await personWithPasskey("clone@example.com", 41);
    const warn = vi.spyOn(log, "warn");
    expect(await tryCounter(passkey, 41)).toBeNull();
    expect(await tryCounter(passkey, 3)).toBeNull();
    expect(await tryCounter(passkey, 0)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[0]![0]).toMatch(/signature counter did not increase/);
    expect(warn.mock.calls[0]![1]).toMatchObject({ passkeyId: passkey.id, storedCounter: "41", receivedCounter: "41" });
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/signature"|clientDataJSON|challenge/);
    warn.mockRestore();
    expect((await stored(passkey.id)).counter).toBe(41n);
    expect(await tryCounter(passkey, 42)).not.toBeNull();
  });

  it("accepts 0 after 0 from authenticators that keep no counter (synced passkeys)", async () => {
    const { passkey } = await personWithPasskey("synced@example.com");
    expect(await tryCounter(passkey, 0)).not.toBeNull();
    expect(await tryCounter(passkey, 0)).not.toBeNull();
  });

  it("refuses a challenge answered twice", async () => {
    const { passkey } = await personWithPasskey("replay@example.com");
    const { id, challenge } = await issueChallenge("authentication", null);
    const assertion = signAssertion(passkey, { rpId: RP.id, origin: RP.origin, challenge, counter: 1 });
    expect(await signInWithPasskey(id, assertion, RP, ORIGIN)).not.toBeNull();
    expect(await signInWithPasskey(id, { ...assertion }, RP, ORIGIN)).toBeNull();
  });

  it("refuses another origin, another relying party, no user verification, and another account's user handle", async () => {
    const { passkey } = await personWithPasskey("strict@example.com");
    const other = await createUser({ email: "other@example.com", name: "Other", role: "staff", password: "mossy granite kettle 42" }, TEST_BY);
    expect(await tryCounter(passkey, 1, { origin: "https://plants.example.evil" })).toBeNull();
    expect(await tryCounter(passkey, 2, { rpId: "evil.example" })).toBeNull();
    expect(await tryCounter(passkey, 3, { userVerified: false })).toBeNull();
    expect(await tryCounter(passkey, 4, { userHandle: Buffer.from(other.id).toString("base64url") })).toBeNull();
    expect(await tryCounter(passkey, 5)).not.toBeNull();
  });

  it("refuses a deactivated account's passkey, and one nobody has", async () => {
    const { userId, passkey } = await personWithPasskey("gone@example.com");
    await db().user.update({ where: { id: userId }, data: { deactivatedAt: new Date() } });
    expect(await tryCounter(passkey, 1)).toBeNull();
    const stranger = makeSoftwarePasskey("nobody");
    expect(await tryCounter(stranger, 1)).toBeNull();
  });

  it("refuses a staff member's passkey under single sign-on only, but not as the second factor of their own single sign-on", async () => {
    const { userId, passkey } = await personWithPasskey("sso-only@example.com");
    await db().setting.upsert({ where: { key: "sign_in_methods" }, create: { key: "sign_in_methods", value: "sso_only", updatedAt: new Date() }, update: { value: "sso_only" } });
    try {
      await expect(tryCounter(passkey, 1)).rejects.toThrow(SIGN_IN_SSO_ONLY);
      const other = await issueChallenge("authentication", null);
      const assertion = signAssertion(passkey, { rpId: RP.id, origin: RP.origin, challenge: other.challenge, counter: 2 });
      expect(await signInWithPasskey(other.id, assertion, RP, ORIGIN, { afterSingleSignOnOf: "someone else" }).catch((error: Error) => error.message)).toBe(SIGN_IN_SSO_ONLY);
      const mine = await issueChallenge("authentication", null);
      const again = signAssertion(passkey, { rpId: RP.id, origin: RP.origin, challenge: mine.challenge, counter: 3 });
      expect(await signInWithPasskey(mine.id, again, RP, ORIGIN, { afterSingleSignOnOf: userId })).toMatchObject({ id: userId });
    } finally {
      await db().setting.deleteMany({ where: { key: "sign_in_methods" } });
    }
  });
});

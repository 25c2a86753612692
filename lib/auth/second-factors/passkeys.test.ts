import { describe, expect, it } from "vitest";
import { authOptions } from "@/lib/auth/sessions/auth-options";
import { PasskeyNotFoundError, PasskeyRefusedError } from "@/lib/auth/second-factors/passkey-errors";
import type { RelyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { addPasskey, beginPasskeyRegistration, listPasskeys, removePasskey } from "@/lib/auth/second-factors/passkeys";
import { createUser, findSessionUser, type StaffUser } from "@/lib/auth/accounts/users";
import { makeSoftwarePasskey, signRegistration } from "@/test/support/software-authenticator";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Adding and removing passkeys on a real database of the run's engine, with
// credentials made in the test as an authenticator makes them: what is
// stored, the options' requirements, the other sessions ended and the record
// written with each change.

const database = setUpTestDatabase();

const RP: RelyingParty = { id: "plants.example", origin: "https://plants.example", name: "Plant Store" };

const newUser = (email: string) => createUser({ email, name: "Pat Passkey", role: "staff", password: "mossy granite kettle 42" }, TEST_BY);

async function register(user: StaffUser, name: string, overrides: { origin?: string; userVerified?: boolean } = {}) {
  const { challengeId, options } = await beginPasskeyRegistration(user, RP);
  const passkey = makeSoftwarePasskey(user.id);
  const response = signRegistration(passkey, { rpId: RP.id, origin: overrides.origin ?? RP.origin, challenge: options.challenge, userVerified: overrides.userVerified });
  return { passkey, challengeId, response, added: addPasskey(user, { challengeId, name, response }, RP, TEST_BY) };
}

const actions = async (userId: string) =>
  (await database.query<{ action: string }>("SELECT action FROM activity WHERE subject_id = $1 AND action LIKE 'account.passkey%' ORDER BY id", [userId])).map((row) => row.action);

describe("adding a passkey", () => {
  it("asks for a discoverable credential with user verification, for this relying party, and not one the person already has", async () => {
    const user = await newUser("options@example.com");
    const { added } = await register(user, "phone");
    await added;
    const { options } = await beginPasskeyRegistration(user, RP);
    expect(options).toMatchObject({
      rp: { id: "plants.example", name: "Plant Store" },
      user: { name: "options@example.com", displayName: "Pat Passkey", id: Buffer.from(user.id).toString("base64url") },
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      attestation: "none",
    });
    expect(options.excludeCredentials).toHaveLength(1);
  });

  it("keeps the credential id and the COSE key base64url with its counter, ends the other sessions, and records it in the same change", async () => {
    const user = await newUser("adds@example.com");
    const before = new Date(Date.now() - 1000);
    expect(await findSessionUser(user.id, before)).not.toBeNull();
    const { passkey, added } = await register(user, "work laptop");
    const { sessionsValidFrom } = await added;
    const [row] = await database.query<Record<string, unknown>>("SELECT * FROM passkeys WHERE user_id = $1", [user.id]);
    expect(row).toMatchObject({ id: passkey.id, name: "work laptop", public_key: passkey.publicKey, transports: "internal" });
    expect(Number(row!.counter)).toBe(0);
    expect(await findSessionUser(user.id, before)).toBeNull();
    expect(await findSessionUser(user.id, sessionsValidFrom)).not.toBeNull();
    expect(await actions(user.id)).toEqual(["account.passkey_added"]);
    const [record] = await database.query<{ changes: string }>("SELECT changes FROM activity WHERE subject_id = $1 AND action = 'account.passkey_added'", [user.id]);
    expect(JSON.parse(String(record!.changes))).toEqual({ after: { passkey: "work laptop" } });
    expect((await listPasskeys(user.id)).map((summary) => summary.name)).toEqual(["work laptop"]);
  });

  it("refuses another origin, no user verification, a challenge used twice or another person's, and changes nothing", async () => {
    const user = await newUser("refused@example.com");
    const other = await newUser("refused-other@example.com");
    await expect((await register(user, "a", { origin: "https://plants.example.evil" })).added).rejects.toBeInstanceOf(PasskeyRefusedError);
    await expect((await register(user, "b", { userVerified: false })).added).rejects.toBeInstanceOf(PasskeyRefusedError);
    const { challengeId, response, added } = await register(user, "c");
    await added;
    await expect(addPasskey(user, { challengeId, name: "c again", response }, RP, TEST_BY)).rejects.toBeInstanceOf(PasskeyRefusedError);
    const forUser = await register(user, "d");
    await forUser.added.catch(() => undefined);
    const { challengeId: othersChallenge, options } = await beginPasskeyRegistration(other, RP);
    const stolen = signRegistration(makeSoftwarePasskey(user.id), { rpId: RP.id, origin: RP.origin, challenge: options.challenge });
    await expect(addPasskey(user, { challengeId: othersChallenge, name: "e", response: stolen }, RP, TEST_BY)).rejects.toBeInstanceOf(PasskeyRefusedError);
    expect((await listPasskeys(user.id)).map((summary) => summary.name)).toEqual(["c", "d"]);
    expect(await actions(user.id)).toEqual(["account.passkey_added", "account.passkey_added"]);
  });
});

describe("removing a passkey", () => {
  it("removes only the person's own, ends their other sessions, and records it in the same change", async () => {
    const user = await newUser("removes@example.com");
    const other = await newUser("removes-other@example.com");
    const { passkey, added } = await register(user, "old phone");
    const { sessionsValidFrom: addedAt } = await added;
    await expect(removePasskey(other, passkey.id, TEST_BY)).rejects.toBeInstanceOf(PasskeyNotFoundError);
    expect(await listPasskeys(user.id)).toHaveLength(1);
    const { sessionsValidFrom } = await removePasskey(user, passkey.id, TEST_BY);
    expect(sessionsValidFrom.getTime()).toBeGreaterThanOrEqual(addedAt.getTime());
    expect(await listPasskeys(user.id)).toEqual([]);
    expect(await actions(user.id)).toEqual(["account.passkey_added", "account.passkey_removed"]);
    await expect(removePasskey(user, passkey.id, TEST_BY)).rejects.toBeInstanceOf(PasskeyNotFoundError);
  });
});

describe("the session's factor claim", () => {
  it("says how the session was signed in: the passkey provider's user carries 'passkey' into the token", async () => {
    const jwt = authOptions().callbacks!.jwt!;
    const token = await jwt({ token: { sub: "u" }, user: { id: "u", signedInAt: 5, factor: "passkey" }, account: null, trigger: "signIn" } as never);
    expect(token).toMatchObject({ sub: "u", signedInAt: 5, factor: "passkey" });
    // next-auth merges a provider's options over its defaults (id "credentials") when it starts.
    const providers = authOptions().providers.map((provider) => (provider as { options?: { id?: string } }).options?.id ?? provider.id);
    expect(providers).toEqual(["credentials", "code", "passkey"]);
  });
});


import { describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts/users";
import { CHALLENGE_LIFETIME_MS, issueChallenge, takeChallenge } from "@/lib/auth/second-factors/webauthn-challenges";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// WebAuthn challenges on a real database of the run's engine: each answers
// once, for its purpose and person, within five minutes, and none outlives its use.

const database = setUpTestDatabase();

const count = async () => Number((await database.query<{ n: number | bigint }>("SELECT COUNT(*) AS n FROM webauthn_challenges"))[0]!.n);

async function newUser(email: string) {
  return createUser({ email, name: "Pat Passkey", role: "staff", password: "mossy granite kettle 42" }, TEST_BY);
}

describe("WebAuthn challenges", () => {
  it("are 32 random bytes, base64url, stored for five minutes", async () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const issued = await issueChallenge("authentication", null, now);
    expect(Buffer.from(issued.challenge, "base64url")).toHaveLength(32);
    const rows = await database.query<Record<string, unknown>>("SELECT * FROM webauthn_challenges WHERE id = $1", [issued.id]);
    expect(rows[0]).toMatchObject({ challenge: issued.challenge, purpose: "authentication", user_id: null });
    expect(CHALLENGE_LIFETIME_MS).toBe(5 * 60 * 1000);
    await takeChallenge(issued.id, "authentication", null, now);
  });

  it("answer once: the first take gets the challenge and deletes it, the second gets nothing", async () => {
    const issued = await issueChallenge("authentication", null);
    expect(await takeChallenge(issued.id, "authentication", null)).toBe(issued.challenge);
    expect(await takeChallenge(issued.id, "authentication", null)).toBeNull();
    expect(await database.query("SELECT id FROM webauthn_challenges WHERE id = $1", [issued.id])).toEqual([]);
  });

  it("answer once when two takes race: exactly one gets the challenge", async () => {
    const issued = await issueChallenge("authentication", null);
    const takes = await Promise.all(Array.from({ length: 5 }, () => takeChallenge(issued.id, "authentication", null)));
    expect(takes.filter((taken) => taken === issued.challenge)).toHaveLength(1);
    expect(takes.filter((taken) => taken === null)).toHaveLength(4);
  });

  it("expire after five minutes, and are deleted when taken late", async () => {
    const start = new Date("2026-11-26T12:00:00Z");
    const onTime = await issueChallenge("authentication", null, start);
    expect(await takeChallenge(onTime.id, "authentication", null, new Date(start.getTime() + CHALLENGE_LIFETIME_MS - 1))).toBe(onTime.challenge);
    const late = await issueChallenge("authentication", null, start);
    expect(await takeChallenge(late.id, "authentication", null, new Date(start.getTime() + CHALLENGE_LIFETIME_MS))).toBeNull();
    expect(await database.query("SELECT id FROM webauthn_challenges WHERE id = $1", [late.id])).toEqual([]);
  });

  it("are swept when expired, as the next one is issued", async () => {
    const start = new Date("2026-11-26T12:00:00Z");
    await issueChallenge("authentication", null, start);
    await issueChallenge("registration", (await newUser("sweep@example.com")).id, start);
    expect(await count()).toBeGreaterThanOrEqual(2);
    await issueChallenge("authentication", null, new Date(start.getTime() + CHALLENGE_LIFETIME_MS));
    expect(await count()).toBe(1);
  });

  it("answer only their purpose and person, and are used up by a wrong try", async () => {
    const ann = await newUser("ann.passkey@example.com");
    const bob = await newUser("bob.passkey@example.com");
    const forAnn = await issueChallenge("registration", ann.id);
    expect(await takeChallenge(forAnn.id, "registration", bob.id)).toBeNull();
    expect(await takeChallenge(forAnn.id, "registration", ann.id)).toBeNull();

    const signIn = await issueChallenge("authentication", null);
    expect(await takeChallenge(signIn.id, "registration", null)).toBeNull();
    expect(await takeChallenge(signIn.id, "authentication", null)).toBeNull();

    const again = await issueChallenge("registration", ann.id);
    expect(await takeChallenge(again.id, "registration", ann.id)).toBe(again.challenge);
  });
});

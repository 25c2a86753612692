import { beforeEach, describe, expect, it } from "vitest";
import { personActor } from "@/lib/activity/actor";
import { subjectHistory } from "@/lib/activity/history";
import {
  changeSecondFactorPolicy,
  hasSecondFactor,
  mayCreateApiToken,
  policyRequires,
  readSecondFactorPolicy,
  SECOND_FACTOR_POLICY_KEY,
  SecondFactorPolicyNotMetError,
  secondFactorStanding,
} from "@/lib/auth/second-factors/second-factor-policy";
import { clearSecondFactors } from "@/lib/auth/second-factors/second-factor-recovery";
import { listTeam } from "@/lib/auth/accounts/team";
import { createUser, findSessionUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { sealEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The owners' second-factor policy, who it holds, the API-token rule, and
// clearing a person's factors (issue 24), on a real database of the run's engine.
// Factors are written as rows here: their own helpers make them in the app.

setUpTestDatabase();

beforeEach(async () => {
  await db().setting.deleteMany();
  await db().user.deleteMany();
});

const PASSWORD = "mossy granite kettle 42";

function member(name: string, role: StaffUser["role"]): Promise<StaffUser> {
  return createUser({ email: `${name.toLowerCase()}@example.com`, name, role, password: PASSWORD }, TEST_BY);
}

/** An authenticator app, confirmed unless `confirmed` is false (one being set up). The seed is sealed as the app seals it. */
async function addTotp(user: StaffUser, confirmed = true): Promise<void> {
  await db().totpFactor.create({ data: { userId: user.id, secret: sealEndpointSecret("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"), confirmedAt: confirmed ? new Date() : null } });
  if (confirmed) await db().recoveryCode.createMany({ data: [1, 2].map((n) => ({ id: `${user.id}-${n}`, userId: user.id, codeHash: `${user.id}-hash-${n}` })) });
}

async function addPasskey(user: StaffUser, name: string): Promise<void> {
  await db().passkey.create({ data: { id: `${user.id}-${name}`, userId: user.id, name, publicKey: "pQECAyYgASFYIA", deviceType: "multiDevice", backedUp: true } });
}

const ownerBy = (owner: StaffUser) => ({ actor: personActor(owner), origin: null });
const records = async (kind: "setting" | "account", id: string) => (await subjectHistory(kind, id, { limit: 100 })).entries;

describe("the second-factor policy", () => {
  it("is off until an owner sets it, and requires a factor of owners, or of everyone", async () => {
    expect(await readSecondFactorPolicy()).toBe("off");
    expect([policyRequires("off", "owner"), policyRequires("off", "staff")]).toEqual([false, false]);
    expect([policyRequires("owners", "owner"), policyRequires("owners", "staff")]).toEqual([true, false]);
    expect([policyRequires("everyone", "owner"), policyRequires("everyone", "staff")]).toEqual([true, true]);
  });

  it("refuses a policy the owner does not meet themself, and changes and records nothing", async () => {
    const olive = await member("Olive", "owner");
    // An authenticator app not yet confirmed by a first code signs no one in: it is no factor.
    await addTotp(olive, false);
    for (const policy of ["owners", "everyone"] as const) {
      await expect(changeSecondFactorPolicy(policy, olive, ownerBy(olive))).rejects.toThrow(SecondFactorPolicyNotMetError);
    }
    expect(await readSecondFactorPolicy()).toBe("off");
    expect(await db().setting.count()).toBe(0);
    expect(await records("setting", SECOND_FACTOR_POLICY_KEY)).toEqual([]);
  });

  it("takes a policy from an owner with a factor, recorded as theirs; the same policy again records nothing", async () => {
    const olive = await member("Olive", "owner");
    await addPasskey(olive, "work phone");
    expect(await changeSecondFactorPolicy("everyone", olive, ownerBy(olive))).toEqual({ before: "off", after: "everyone" });
    expect(await readSecondFactorPolicy()).toBe("everyone");
    expect(await changeSecondFactorPolicy("everyone", olive, ownerBy(olive))).toEqual({ before: "everyone", after: "everyone" });
    // A staff member's policy of "owners" asks nothing of them: only the owner's own standing is checked.
    expect(await changeSecondFactorPolicy("owners", olive, ownerBy(olive))).toEqual({ before: "everyone", after: "owners" });
    const recorded = await records("setting", SECOND_FACTOR_POLICY_KEY);
    expect(recorded.map(({ action, actor, changes }) => ({ action, actor, changes }))).toEqual([
      { action: "settings.changed", actor: { kind: "person", userId: olive.id, tokenId: null, name: "Olive" }, changes: { before: { secondFactorPolicy: "everyone" }, after: { secondFactorPolicy: "owners" } } },
      { action: "settings.changed", actor: { kind: "person", userId: olive.id, tokenId: null, name: "Olive" }, changes: { before: { secondFactorPolicy: "off" }, after: { secondFactorPolicy: "everyone" } } },
    ]);
    // Off again is always allowed: it holds no one.
    await db().passkey.deleteMany();
    expect(await changeSecondFactorPolicy("off", olive, ownerBy(olive))).toEqual({ before: "owners", after: "off" });
  });

  it("reads a value it does not know as the strictest policy", async () => {
    await db().setting.create({ data: { key: SECOND_FACTOR_POLICY_KEY, value: "owners-and-robots" } });
    expect(await readSecondFactorPolicy()).toBe("everyone");
  });

  it("holds whoever it requires to have a factor and has none; a session that did not pass an existing factor signs in again", async () => {
    const olive = await member("Olive", "owner");
    const sam = await member("Sam", "staff");
    await addTotp(olive);
    await changeSecondFactorPolicy("owners", olive, ownerBy(olive));

    expect(await secondFactorStanding(olive, "totp")).toBe("passed");
    expect(await secondFactorStanding(olive, "recovery")).toBe("passed");
    expect(await secondFactorStanding(olive, "password")).toBe("sign_in_again");
    expect(await secondFactorStanding(olive, undefined)).toBe("sign_in_again");
    expect(await secondFactorStanding(sam, "password")).toBe("passed");

    await changeSecondFactorPolicy("everyone", olive, ownerBy(olive));
    expect(await secondFactorStanding(sam, "password")).toBe("set_up");
    await addTotp(sam, false);
    expect(await secondFactorStanding(sam, "password")).toBe("set_up");
    await addPasskey(sam, "till tablet");
    expect(await hasSecondFactor(sam.id)).toBe(true);
    // With the policy off, a person who has a factor still signs in with it.
    await changeSecondFactorPolicy("off", olive, ownerBy(olive));
    expect(await secondFactorStanding(sam, "password")).toBe("sign_in_again");
    expect(await secondFactorStanding(sam, "passkey")).toBe("passed");
  });
});

describe("creating an API token in the staff app", () => {
  it("needs a session that passed the person's second factor, when they have one", async () => {
    const sam = await member("Sam", "staff");
    expect(await mayCreateApiToken(sam.id, "password")).toBe(true);
    expect(await mayCreateApiToken(sam.id, undefined)).toBe(true);
    await addTotp(sam);
    expect(await mayCreateApiToken(sam.id, "password")).toBe(false);
    expect(await mayCreateApiToken(sam.id, undefined)).toBe(false);
    expect(await mayCreateApiToken(sam.id, "totp")).toBe(true);
    expect(await mayCreateApiToken(sam.id, "recovery")).toBe(true);
    expect(await mayCreateApiToken(sam.id, "passkey")).toBe(true);
  });
});

describe("clearing a person's second factors", () => {
  it("removes the app, its recovery codes and the passkeys, ends their sessions, and records what was cleared", async () => {
    const olive = await member("Olive", "owner");
    const sam = await member("Sam", "staff");
    const other = await member("Ada", "staff");
    await addTotp(sam);
    await addPasskey(sam, "work phone");
    await addPasskey(sam, "till tablet");
    await addTotp(other);
    const sessionBefore = new Date(Date.now() - 1000);
    expect(await findSessionUser(sam.id, sessionBefore)).not.toBeNull();
    expect((await listTeam()).members.find((row) => row.id === sam.id)?.hasSecondFactor).toBe(true);

    const { user, cleared } = await clearSecondFactors(sam.id, ownerBy(olive));
    expect(user.id).toBe(sam.id);
    expect(cleared).toEqual({ authenticatorApp: true, passkeys: ["work phone", "till tablet"] });
    expect(await hasSecondFactor(sam.id)).toBe(false);
    expect([await db().totpFactor.count({ where: { userId: sam.id } }), await db().recoveryCode.count({ where: { userId: sam.id } }), await db().passkey.count({ where: { userId: sam.id } })]).toEqual([0, 0, 0]);
    // Another person's factors are untouched.
    expect(await hasSecondFactor(other.id)).toBe(true);
    expect(await db().recoveryCode.count({ where: { userId: other.id } })).toBe(2);
    expect(await findSessionUser(sam.id, sessionBefore)).toBeNull();
    expect((await listTeam()).members.find((row) => row.id === sam.id)?.hasSecondFactor).toBe(false);

    const [record] = await records("account", sam.id);
    expect(record).toMatchObject({
      action: "account.factors_cleared",
      actor: { kind: "person", userId: olive.id, name: "Olive" },
      changes: { before: { authenticatorApp: true, passkeys: ["work phone", "till tablet"] } },
    });
    expect(JSON.stringify(record?.changes)).not.toContain("JBSWY3DP");
  });

  it("records nothing and keeps the sessions of a person with no factor, but drops an app left half set up", async () => {
    const sam = await member("Sam", "staff");
    await addTotp(sam, false);
    const sessionBefore = new Date(Date.now() - 1000);
    const before = (await records("account", sam.id)).length;
    expect((await clearSecondFactors(sam.id, TEST_BY)).cleared).toBeNull();
    expect(await db().totpFactor.count({ where: { userId: sam.id } })).toBe(0);
    expect(await records("account", sam.id)).toHaveLength(before);
    expect(await findSessionUser(sam.id, sessionBefore)).not.toBeNull();
  });
});

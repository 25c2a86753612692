import { beforeEach, describe, expect, it } from "vitest";
import { personActor } from "@/lib/activity/actor";
import { subjectHistory } from "@/lib/activity/history";
import { createInvitation } from "@/lib/auth/accounts/account-links";
import { deactivateUser } from "@/lib/auth/accounts/team";
import { authenticate, createUser, type StaffUser } from "@/lib/auth/accounts/users";
import { secondFactorStanding } from "@/lib/auth/second-factors/second-factor-policy";
import { changeSignInMethods, mayUseOwnCredentials, readSignInMethods } from "@/lib/auth/single-sign-on/sign-in-methods";
import { hasOwnWayIn, linkedIdentity, NoOtherWayInError, unlinkIdentity } from "@/lib/auth/single-sign-on/sso-identities";
import { signInWithSso, type SsoClaims, ssoFactor } from "@/lib/auth/single-sign-on/sso-sign-in";
import { db } from "@/lib/db/client";
import { sealEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Who a single sign-on lets in, and as whom (issue 34), once next-auth has
// checked the provider's answer: on a real database of the run's engine. The
// provider's checks themselves (state, PKCE, signature, audience, nonce) are
// the HTTP tests' (test/http/single-sign-on.test.ts), against a real provider.

setUpTestDatabase();

const ISSUER = "https://sso.shop.example";
const PASSWORD = "mossy granite kettle 42";

beforeEach(async () => {
  await db().setting.deleteMany();
  await db().accountLink.deleteMany();
  await db().user.deleteMany();
});

const claims = (sub: string, email: string, extra: Partial<SsoClaims> = {}): SsoClaims => ({ iss: ISSUER, sub, email, email_verified: true, name: "Ana Lopez", ...extra });

function member(email: string, role: StaffUser["role"] = "staff"): Promise<StaffUser> {
  return createUser({ email, name: email.split("@")[0]!, role, password: PASSWORD }, TEST_BY);
}

const counts = async () => ({ users: await db().user.count(), identities: await db().ssoIdentity.count() });
const accountRecords = async (id: string) => (await subjectHistory("account", id, { limit: 100 })).entries.map((entry) => entry.action);

describe("a verified email", () => {
  it("of an active account signs into it and links the identity, which then finds it after an email change", async () => {
    const ana = await member("ana@shop.example");
    const first = await signInWithSso(claims("sub-1", "Ana@Shop.example"), [], null);
    expect(first).toMatchObject({ outcome: "signed_in", user: { id: ana.id, factor: "sso" } });
    expect(await linkedIdentity(ana.id)).toMatchObject({ issuer: ISSUER, email: "ana@shop.example" });
    const renamed = await signInWithSso(claims("sub-1", "ana.lopez@other.example"), [], null);
    expect(renamed).toMatchObject({ outcome: "signed_in", user: { id: ana.id } });
    expect(await linkedIdentity(ana.id)).toMatchObject({ email: "ana.lopez@other.example" });
    expect(await accountRecords(ana.id)).toEqual(expect.arrayContaining(["account.sso_linked", "sign_in.succeeded"]));
  });

  it("of an account linked to another person of the provider is refused, and nothing is linked", async () => {
    const ana = await member("ana@shop.example");
    await signInWithSso(claims("sub-1", "ana@shop.example"), [], null);
    expect(await signInWithSso(claims("sub-2", "ana@shop.example"), [], null)).toEqual({ outcome: "refused", reason: "sso-refused" });
    expect(await db().ssoIdentity.findMany({ where: { userId: ana.id }, select: { subject: true } })).toEqual([{ subject: "sub-1" }]);
  });

  it("with a pending invitation joins with the invited role, without a password, and uses the invitation up", async () => {
    await createInvitation({ email: "owen@shop.example", role: "owner" }, TEST_BY);
    const joined = await signInWithSso(claims("sub-3", "owen@shop.example", { name: "Owen" }), [], null);
    expect(joined).toMatchObject({ outcome: "signed_in", user: { email: "owen@shop.example", name: "Owen", role: "owner" } });
    const user = await db().user.findUniqueOrThrow({ where: { email: "owen@shop.example" } });
    expect(await hasOwnWayIn(user.id)).toBe(false);
    expect(await authenticate("owen@shop.example", "", null)).toBeNull();
    const invitation = await db().accountLink.findFirstOrThrow({ where: { email: "owen@shop.example" } });
    expect({ used: invitation.usedAt !== null, userId: invitation.userId }).toEqual({ used: true, userId: user.id });
    expect(await accountRecords(user.id)).toEqual(expect.arrayContaining(["account.joined", "account.sso_linked", "sign_in.succeeded"]));
  });

  it("of an allowed domain joins as staff; of another domain, nothing is made", async () => {
    expect(await signInWithSso(claims("sub-4", "sam@shop.example"), ["shop.example"], null)).toMatchObject({ outcome: "signed_in", user: { role: "staff" } });
    const before = await counts();
    expect(await signInWithSso(claims("sub-5", "eve@elsewhere.example"), ["shop.example"], null)).toEqual({ outcome: "refused", reason: "sso-refused" });
    expect(await counts()).toEqual(before);
  });
});

describe("refused, with nothing made or linked", () => {
  it("an email the provider has not verified, or no email at all, even for an existing account", async () => {
    await member("ana@shop.example");
    const before = await counts();
    for (const verified of [false, "true", undefined]) {
      expect(await signInWithSso(claims("sub-1", "ana@shop.example", { email_verified: verified }), ["shop.example"], null)).toEqual({ outcome: "refused", reason: "sso-unverified" });
    }
    expect(await signInWithSso({ iss: ISSUER, sub: "sub-1", email_verified: true }, ["shop.example"], null)).toEqual({ outcome: "refused", reason: "sso-unverified" });
    expect(await counts()).toEqual(before);
  });

  it("a stranger, with no account, invitation or allowed domain", async () => {
    expect(await signInWithSso(claims("sub-9", "stranger@shop.example"), [], null)).toEqual({ outcome: "refused", reason: "sso-refused" });
    expect(await counts()).toEqual({ users: 0, identities: 0 });
  });

  it("a deactivated account, by its email or by its linked identity", async () => {
    const owner = await member("olga@shop.example", "owner");
    const ana = await member("ana@shop.example");
    await signInWithSso(claims("sub-1", "ana@shop.example"), [], null);
    await deactivateUser(ana.id, { actor: personActor(owner), origin: null });
    expect(await signInWithSso(claims("sub-1", "ana@shop.example"), [], null)).toEqual({ outcome: "refused", reason: "sso-deactivated" });
    const bob = await member("bob@shop.example");
    await deactivateUser(bob.id, { actor: personActor(owner), origin: null });
    expect(await signInWithSso(claims("sub-2", "bob@shop.example"), [], null)).toEqual({ outcome: "refused", reason: "sso-deactivated" });
    expect(await linkedIdentity(bob.id)).toBeNull();
  });
});

describe("the second factor", () => {
  it("passes only when the ID token's amr names one the provider asked for", () => {
    expect([ssoFactor(["pwd", "mfa"]), ssoFactor(["otp"]), ssoFactor(["hwk"]), ssoFactor(["swk"])]).toEqual(["sso_mfa", "sso_mfa", "sso_mfa", "sso_mfa"]);
    expect([ssoFactor(["pwd"]), ssoFactor(undefined), ssoFactor("mfa"), ssoFactor([])]).toEqual(["sso", "sso", "sso", "sso"]);
  });

  it("of a person with an authenticator app is still asked for, unless the provider asked for one", async () => {
    const ana = await member("ana@shop.example");
    await db().totpFactor.create({ data: { userId: ana.id, secret: sealEndpointSecret("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"), confirmedAt: new Date() } });
    expect(await signInWithSso(claims("sub-1", "ana@shop.example", { amr: ["pwd"] }), [], null)).toMatchObject({ outcome: "code_needed", ticket: expect.any(String) });
    expect(await signInWithSso(claims("sub-1", "ana@shop.example", { amr: ["pwd", "mfa"] }), [], null)).toMatchObject({ outcome: "signed_in", user: { factor: "sso_mfa" } });
  });
});

it("with the provider's own second factor meets the owners' policy, without one of the store's", async () => {
  const ana = await member("ana@shop.example");
  await db().setting.create({ data: { key: "second_factor_policy", value: "everyone", updatedAt: new Date() } });
  expect(await secondFactorStanding(ana, "sso_mfa")).toBe("passed");
  expect(await secondFactorStanding(ana, "sso")).toBe("set_up");
});

describe("unlinking", () => {
  it("one's own is refused while it is the only way in, and done once a password exists", async () => {
    await createInvitation({ email: "owen@shop.example", role: "staff" }, TEST_BY);
    const joined = await signInWithSso(claims("sub-3", "owen@shop.example"), [], null);
    if (joined.outcome !== "signed_in") throw new Error(`not signed in: ${JSON.stringify(joined)}`);
    const by = { actor: personActor(joined.user), origin: null };
    await expect(unlinkIdentity(joined.user.id, by, { keepAWayIn: true })).rejects.toThrow(NoOtherWayInError);
    expect(await linkedIdentity(joined.user.id)).not.toBeNull();
    // An owner may unlink it whatever is left: signing in again links it again by the verified email.
    expect(await unlinkIdentity(joined.user.id, TEST_BY, { keepAWayIn: false })).toBe(true);
    expect(await linkedIdentity(joined.user.id)).toBeNull();
    expect(await accountRecords(joined.user.id)).toContain("account.sso_unlinked");
    expect(await unlinkIdentity(joined.user.id, TEST_BY, { keepAWayIn: false })).toBe(false);
  });
});

describe("the owners' choice of sign-in methods", () => {
  it("is every method until changed; single sign-on only keeps owners' own credentials and refuses staff's", async () => {
    expect(await readSignInMethods()).toBe("all");
    expect(await mayUseOwnCredentials("staff")).toBe(true);
    await db().setting.create({ data: { key: "sign_in_methods", value: "sso_only", updatedAt: new Date() } });
    expect([await mayUseOwnCredentials("staff"), await mayUseOwnCredentials("owner")]).toEqual([false, true]);
  });

  it("refuses single sign-on only where no provider is configured, and changes nothing", async () => {
    const owner = await member("olga@shop.example", "owner");
    await expect(changeSignInMethods("sso_only", { actor: personActor(owner), origin: null })).rejects.toThrow(/single sign-on is not set up on this server/);
    expect(await readSignInMethods()).toBe("all");
  });
});

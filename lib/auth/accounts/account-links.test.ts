import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AccountDeactivatedError, EmailTakenError, LinkUnusableError, WeakPasswordError } from "@/lib/auth/account-errors";
import { acceptInvitation, createInvitation, createPasswordReset, LINK_LIFETIMES_MS, openLink, resetPassword, withdrawInvitation } from "@/lib/auth/accounts/account-links";
import { newLinkSecret } from "@/lib/auth/accounts/link-secret";
import { deactivateUser, reactivateUser } from "@/lib/auth/accounts/team";
import { authenticate, createUser, findSessionUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// One-time links on a real database of the run's engine: what is stored,
// the states a page tells apart, and single use under a race.

const database = setUpTestDatabase();

const PASSWORD = "mossy granite kettle 42";

async function expectUnusable(promise: Promise<unknown>, state: string): Promise<void> {
  const error: unknown = await promise.then(() => null, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(LinkUnusableError);
  expect((error as LinkUnusableError).state).toBe(state);
}

const expire = (id: string) => db().accountLink.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });

describe("invitations", () => {
  it("stores only the secret's SHA-256, and opens as valid for 7 days with its email and role", async () => {
    const { secret, link } = await createInvitation({ email: "ivy@example.com", role: "staff" }, TEST_BY);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(LINK_LIFETIMES_MS.invitation);
    expect(LINK_LIFETIMES_MS.invitation).toBe(7 * 24 * 3600 * 1000);

    const rows = await database.query<Record<string, unknown>>("SELECT * FROM account_links WHERE id = $1", [link.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: "invitation", email: "ivy@example.com", role: "staff", token_hash: createHash("sha256").update(secret).digest("hex") });
    expect(JSON.stringify(rows)).not.toContain(secret);

    expect(await openLink("invitation", secret)).toEqual({ state: "valid", link });
    expect(link).toMatchObject({ purpose: "invitation", email: "ivy@example.com", role: "staff", userId: null });
  });

  it("makes the account when accepted, once: then the link is used", async () => {
    const { secret, link } = await createInvitation({ email: "owen@example.com", role: "owner" }, TEST_BY);
    const user = await acceptInvitation(secret, { name: "Owen", password: PASSWORD }, null);
    expect(user).toMatchObject({ email: "owen@example.com", name: "Owen", role: "owner" });
    expect(await authenticate("owen@example.com", PASSWORD, null)).toEqual({ ...user, signedInAt: expect.any(Date), factor: "password" });
    expect(await openLink("invitation", secret)).toEqual({ state: "used" });
    expect(await db().accountLink.findUnique({ where: { id: link.id } })).toMatchObject({ userId: user.id, usedAt: expect.any(Date) });
    await expectUnusable(acceptInvitation(secret, { name: "Owen again", password: PASSWORD }, null), "used");
  });

  it("lets exactly one of two accepts at once make the account", async () => {
    const { secret } = await createInvitation({ email: "race@example.com", role: "staff" }, TEST_BY);
    const outcomes = await Promise.allSettled([
      acceptInvitation(secret, { name: "First", password: PASSWORD }, null),
      acceptInvitation(secret, { name: "Second", password: PASSWORD }, null),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const lost = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(LinkUnusableError);
    expect((lost[0]!.reason as LinkUnusableError).state).toBe("used");
    expect(await db().user.count({ where: { email: "race@example.com" } })).toBe(1);
  });

  it("tells expired, withdrawn (by an owner or by a newer invitation) and unknown apart", async () => {
    const expired = await createInvitation({ email: "late@example.com", role: "staff" }, TEST_BY);
    await expire(expired.link.id);
    expect(await openLink("invitation", expired.secret)).toEqual({ state: "expired" });
    await expectUnusable(acceptInvitation(expired.secret, { name: "Late", password: PASSWORD }, null), "expired");
    // An expired invitation stays expired: there is nothing pending to withdraw.
    expect(await withdrawInvitation(expired.link.id, TEST_BY)).toBe(false);
    expect(await openLink("invitation", expired.secret)).toEqual({ state: "expired" });

    const first = await createInvitation({ email: "twice@example.com", role: "staff" }, TEST_BY);
    const second = await createInvitation({ email: "twice@example.com", role: "owner" }, TEST_BY);
    expect(await openLink("invitation", first.secret)).toEqual({ state: "withdrawn" });
    expect(await openLink("invitation", second.secret)).toMatchObject({ state: "valid", link: { role: "owner" } });
    await expectUnusable(acceptInvitation(first.secret, { name: "Twice", password: PASSWORD }, null), "withdrawn");

    expect(await withdrawInvitation(second.link.id, TEST_BY)).toBe(true);
    expect(await withdrawInvitation(second.link.id, TEST_BY)).toBe(false);
    expect(await openLink("invitation", second.secret)).toEqual({ state: "withdrawn" });

    expect(await openLink("invitation", newLinkSecret())).toEqual({ state: "unknown" });
    expect(await openLink("invitation", "not a secret")).toEqual({ state: "unknown" });
    // An invitation's secret resets no password.
    const other = await createInvitation({ email: "other@example.com", role: "staff" }, TEST_BY);
    expect(await openLink("password_reset", other.secret)).toEqual({ state: "unknown" });
    await expectUnusable(resetPassword(other.secret, PASSWORD, null), "unknown");
  });

  it("is refused for an email an account has, at invitation and at acceptance", async () => {
    await createUser({ email: "taken@example.com", name: "Taken", role: "staff", password: PASSWORD }, TEST_BY);
    await expect(createInvitation({ email: "taken@example.com", role: "staff" }, TEST_BY)).rejects.toThrow(new EmailTakenError("taken@example.com"));

    const { secret } = await createInvitation({ email: "meanwhile@example.com", role: "staff" }, TEST_BY);
    await createUser({ email: "meanwhile@example.com", name: "Meanwhile", role: "staff", password: PASSWORD }, TEST_BY);
    await expect(acceptInvitation(secret, { name: "Meanwhile", password: PASSWORD }, null)).rejects.toBeInstanceOf(EmailTakenError);
    // Nothing was used up.
    expect(await openLink("invitation", secret)).toMatchObject({ state: "valid" });
  });

  it("refuses a password that is easy to guess, and keeps the invitation", async () => {
    const { secret } = await createInvitation({ email: "weak@example.com", role: "staff" }, TEST_BY);
    await expect(acceptInvitation(secret, { name: "Weak", password: "password1234" }, null)).rejects.toThrow(WeakPasswordError);
    await expect(acceptInvitation(secret, { name: "Weak Person", password: "weak@example.com" }, null)).rejects.toThrow(/too easy to guess/);
    expect(await openLink("invitation", secret)).toMatchObject({ state: "valid" });
  });
});

describe("password resets", () => {
  it("set the new password, void earlier sessions, and are used once; valid 24 hours", async () => {
    const user = await createUser({ email: "rita@example.com", name: "Rita", role: "staff", password: PASSWORD }, TEST_BY);
    const signedIn = new Date(Date.now() - 5000);
    expect(await findSessionUser(user.id, signedIn)).toEqual(user);
    const { secret, link } = await createPasswordReset({ userId: user.id }, TEST_BY);
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(24 * 3600 * 1000);
    expect(await openLink("password_reset", secret)).toEqual({ state: "valid", link: expect.objectContaining({ email: "rita@example.com", userId: user.id, role: null }) });

    await expect(resetPassword(secret, "password1234", null)).rejects.toBeInstanceOf(WeakPasswordError);
    await expect(resetPassword(secret, "purple-otter-drums-loudly", null)).resolves.toEqual(user);
    expect(await authenticate("rita@example.com", PASSWORD, null)).toBeNull();
    expect(await authenticate("rita@example.com", "purple-otter-drums-loudly", null)).toEqual({ ...user, signedInAt: expect.any(Date), factor: "password" });
    // The session from before the reset is void; one signed in now counts.
    expect(await findSessionUser(user.id, signedIn)).toBeNull();
    expect(await findSessionUser(user.id, new Date())).toEqual(user);

    expect(await openLink("password_reset", secret)).toEqual({ state: "used" });
    await expectUnusable(resetPassword(secret, "another mossy kettle 43", null), "used");
    const rows = await database.query("SELECT * FROM account_links");
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it("void the pending one when a new one is made, expire, and are withdrawn by a deactivation", async () => {
    const user = await createUser({ email: "rex@example.com", name: "Rex", role: "staff", password: PASSWORD }, TEST_BY);
    const first = await createPasswordReset({ userId: user.id }, TEST_BY);
    const second = await createPasswordReset({ userId: user.id }, TEST_BY);
    expect(await openLink("password_reset", first.secret)).toEqual({ state: "withdrawn" });
    await expire(second.link.id);
    expect(await openLink("password_reset", second.secret)).toEqual({ state: "expired" });
    await expectUnusable(resetPassword(second.secret, "purple-otter-drums-loudly", null), "expired");

    const third = await createPasswordReset({ userId: user.id }, TEST_BY);
    await deactivateUser(user.id, TEST_BY);
    expect(await openLink("password_reset", third.secret)).toEqual({ state: "withdrawn" });
    await expect(createPasswordReset({ userId: user.id }, TEST_BY)).rejects.toThrow(new AccountDeactivatedError("rex@example.com"));
    await reactivateUser(user.id, TEST_BY);
    expect(await openLink("password_reset", (await createPasswordReset({ userId: user.id }, TEST_BY)).secret)).toMatchObject({ state: "valid" });
  });

  it("let exactly one of two resets at once set the password", async () => {
    const user = await createUser({ email: "duo@example.com", name: "Duo", role: "staff", password: PASSWORD }, TEST_BY);
    const { secret } = await createPasswordReset({ userId: user.id }, TEST_BY);
    const outcomes = await Promise.allSettled([resetPassword(secret, "first mossy kettle 44", null), resetPassword(secret, "second granite otter 45", null)]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const [lost] = outcomes.filter((outcome) => outcome.status === "rejected");
    expect((lost?.reason as LinkUnusableError).state).toBe("used");
  });
});

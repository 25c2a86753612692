import { beforeEach, describe, expect, it } from "vitest";
import { AccountNotFoundError, LastOwnerError } from "@/lib/auth/account-errors";
import { acceptInvitation, createInvitation, withdrawInvitation } from "@/lib/auth/accounts/account-links";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens/api-tokens";
import { changeRole, deactivateUser, listTeam, reactivateUser } from "@/lib/auth/accounts/team";
import { checkApiToken } from "@/lib/auth/api-tokens/token-check";
import { authenticate, createUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The team's operations on a real database of the run's engine. The last-owner
// rule counts every account, so each test starts from an empty team.

setUpTestDatabase();

beforeEach(async () => {
  await db().accountLink.deleteMany();
  await db().apiToken.deleteMany();
  await db().user.deleteMany();
});

const PASSWORD = "mossy granite kettle 42";

function member(name: string, role: StaffUser["role"]): Promise<StaffUser> {
  return createUser({ email: `${name.toLowerCase()}@example.com`, name, role, password: PASSWORD }, TEST_BY);
}

const activeOwners = () => db().user.count({ where: { role: "owner", deactivatedAt: null } });

describe("the team's listing", () => {
  it("shows every account with its status, last sign-in and live tokens, and the pending invitations", async () => {
    const olive = await member("Olive", "owner");
    const sam = await member("Sam", "staff");
    await authenticate("olive@example.com", PASSWORD, null);
    await deactivateUser(sam.id, TEST_BY);
    await createApiToken({ label: "live", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: olive.id }, TEST_BY);
    const revoked = await createApiToken({ label: "revoked", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: olive.id }, TEST_BY);
    await revokeApiToken(revoked.info.id, TEST_BY);
    const expired = await createApiToken({ label: "expired", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: olive.id }, TEST_BY);
    await db().apiToken.update({ where: { id: expired.info.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await createApiToken({ label: "sam's", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: sam.id }, TEST_BY);

    const pending = await createInvitation({ email: "ivy@example.com", role: "staff" }, TEST_BY);
    const withdrawn = await createInvitation({ email: "wes@example.com", role: "staff" }, TEST_BY);
    await withdrawInvitation(withdrawn.link.id, TEST_BY);
    const lapsed = await createInvitation({ email: "lou@example.com", role: "owner" }, TEST_BY);
    await db().accountLink.update({ where: { id: lapsed.link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await acceptInvitation((await createInvitation({ email: "ada@example.com", role: "staff" }, TEST_BY)).secret, { name: "Ada", password: PASSWORD }, null);

    const team = await listTeam();
    expect(team.members).toEqual([
      { id: olive.id, email: "olive@example.com", name: "Olive", role: "owner", status: "active", createdAt: expect.any(Date), lastSignInAt: expect.any(Date), deactivatedAt: null, liveTokens: 1, hasSecondFactor: false },
      { id: sam.id, email: "sam@example.com", name: "Sam", role: "staff", status: "deactivated", createdAt: expect.any(Date), lastSignInAt: null, deactivatedAt: expect.any(Date), liveTokens: 1, hasSecondFactor: false },
      expect.objectContaining({ email: "ada@example.com", status: "active", liveTokens: 0 }),
    ]);
    expect(team.invitations).toEqual([{ id: pending.link.id, email: "ivy@example.com", role: "staff", status: "invited", createdAt: pending.link.createdAt, expiresAt: pending.link.expiresAt }]);
  });
});

describe("roles and deactivation", () => {
  it("changes roles, but never demotes the last active owner", async () => {
    const olive = await member("Olive", "owner");
    const sam = await member("Sam", "staff");
    await expect(changeRole(olive.id, "staff", TEST_BY)).rejects.toThrow(new LastOwnerError("olive@example.com"));
    await expect(changeRole(olive.id, "staff", TEST_BY)).rejects.toThrow("olive@example.com is the only active owner: make another owner first");
    expect(await changeRole(sam.id, "owner", TEST_BY)).toEqual({ ...sam, role: "owner" });
    expect(await changeRole(olive.id, "staff", TEST_BY)).toEqual({ ...olive, role: "staff" });
    // Unchanged is not a demotion.
    expect(await changeRole(sam.id, "owner", TEST_BY)).toEqual({ ...sam, role: "owner" });
    await expect(changeRole(sam.id, "staff", TEST_BY)).rejects.toBeInstanceOf(LastOwnerError);
    await expect(changeRole("no-such-id", "staff", TEST_BY)).rejects.toBeInstanceOf(AccountNotFoundError);
  });

  it("never deactivates the last active owner, and a deactivated owner does not count as one", async () => {
    const olive = await member("Olive", "owner");
    const otto = await member("Otto", "owner");
    await expect(deactivateUser(otto.id, TEST_BY)).resolves.toEqual(otto);
    await expect(deactivateUser(olive.id, TEST_BY)).rejects.toThrow(new LastOwnerError("olive@example.com"));
    await expect(changeRole(olive.id, "staff", TEST_BY)).rejects.toBeInstanceOf(LastOwnerError);
    // A deactivated owner may be demoted: it is not the store's active owner.
    await expect(changeRole(otto.id, "staff", TEST_BY)).resolves.toMatchObject({ role: "staff" });
    await reactivateUser(otto.id, TEST_BY);
    await changeRole(otto.id, "owner", TEST_BY);
    await expect(deactivateUser(olive.id, TEST_BY)).resolves.toEqual(olive);
    expect(await activeOwners()).toBe(1);
  });

  it("lets only one of two owners demoting or deactivating each other at once succeed", async () => {
    for (const act of [(user: StaffUser) => changeRole(user.id, "staff", TEST_BY), (user: StaffUser) => deactivateUser(user.id, TEST_BY)]) {
      for (let round = 0; round < 3; round++) {
        await db().user.deleteMany();
        const [first, second] = await Promise.all([member("First", "owner"), member("Second", "owner")]);
        const outcomes = await Promise.allSettled([act(first), act(second)]);
        expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
        const [lost] = outcomes.filter((outcome) => outcome.status === "rejected");
        expect(lost?.reason).toBeInstanceOf(LastOwnerError);
        expect(await activeOwners()).toBe(1);
      }
    }
  });

  it("refuses a deactivated account's API tokens on the next request, and accepts them again after reactivation", async () => {
    await member("Olive", "owner");
    const sam = await member("Sam", "staff");
    const { token } = await createApiToken({ label: "till", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: sam.id }, TEST_BY);
    const operator = await createApiToken({ label: "cli", scopes: ["plants:read"], lifetimeSeconds: 3600 }, TEST_BY);
    expect((await checkApiToken(token)).ok).toBe(true);

    const deactivated = Date.now();
    await deactivateUser(sam.id, TEST_BY);
    expect(await checkApiToken(token)).toEqual({ ok: false, reason: "deactivated" });
    expect((await checkApiToken(operator.token)).ok).toBe(true);
    const row = await db().user.findUniqueOrThrow({ where: { id: sam.id } });
    expect(row.deactivatedAt?.getTime()).toBeGreaterThanOrEqual(deactivated - 1);
    expect(row.sessionsValidFrom).toEqual(row.deactivatedAt);

    // Twice keeps the first time.
    await deactivateUser(sam.id, TEST_BY);
    expect((await db().user.findUniqueOrThrow({ where: { id: sam.id } })).deactivatedAt).toEqual(row.deactivatedAt);

    await reactivateUser(sam.id, TEST_BY);
    expect(await checkApiToken(token)).toMatchObject({ ok: true, info: { ownerId: sam.id } });
    expect(await db().user.findUniqueOrThrow({ where: { id: sam.id } })).toMatchObject({ deactivatedAt: null, sessionsValidFrom: row.sessionsValidFrom });
  });
});

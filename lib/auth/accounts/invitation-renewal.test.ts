import { describe, expect, it } from "vitest";
import { personActor } from "@/lib/activity/actor";
import { EmailTakenError } from "@/lib/auth/account-errors";
import { acceptInvitation, createInvitation, openLink, withdrawInvitation } from "@/lib/auth/accounts/account-links";
import { renewInvitation } from "@/lib/auth/accounts/invitation-renewal";
import { createUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// A new link for a pending invitation, on a real database of the run's engine.

setUpTestDatabase();

const PASSWORD = "mossy granite kettle 42";

describe("a new link for an invitation", () => {
  it("replaces the pending invitation with one for the same email and role, from the owner who asked", async () => {
    const owner = await createUser({ email: "olive@example.com", name: "Olive", role: "owner", password: PASSWORD }, TEST_BY);
    const old = await createInvitation({ email: "ivy@example.com", role: "owner" }, TEST_BY);

    const renewed = await renewInvitation(old.link.id, { actor: personActor(owner), origin: null });
    expect(renewed).not.toBeNull();
    expect(renewed!.secret).not.toBe(old.secret);
    expect(renewed!.link).toMatchObject({ purpose: "invitation", email: "ivy@example.com", role: "owner", userId: null });
    expect(renewed!.link.id).not.toBe(old.link.id);
    expect(await openLink("invitation", old.secret)).toEqual({ state: "withdrawn" });
    expect(await openLink("invitation", renewed!.secret)).toEqual({ state: "valid", link: renewed!.link });
    expect(await db().accountLink.findUnique({ where: { id: renewed!.link.id } })).toMatchObject({ createdById: owner.id });
  });

  it("is null for an invitation no longer pending: withdrawn, replaced, expired, accepted, or unknown", async () => {
    const withdrawn = await createInvitation({ email: "wes@example.com", role: "staff" }, TEST_BY);
    await withdrawInvitation(withdrawn.link.id, TEST_BY);
    expect(await renewInvitation(withdrawn.link.id, TEST_BY)).toBeNull();

    const replaced = await createInvitation({ email: "rue@example.com", role: "staff" }, TEST_BY);
    await renewInvitation(replaced.link.id, TEST_BY);
    expect(await renewInvitation(replaced.link.id, TEST_BY)).toBeNull();

    const expired = await createInvitation({ email: "lou@example.com", role: "staff" }, TEST_BY);
    await db().accountLink.update({ where: { id: expired.link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await renewInvitation(expired.link.id, TEST_BY)).toBeNull();

    const accepted = await createInvitation({ email: "ada@example.com", role: "staff" }, TEST_BY);
    await acceptInvitation(accepted.secret, { name: "Ada", password: PASSWORD }, null);
    expect(await renewInvitation(accepted.link.id, TEST_BY)).toBeNull();

    expect(await renewInvitation("no-such-id", TEST_BY)).toBeNull();
    // Nothing new was made for any of them.
    expect(await db().accountLink.count({ where: { email: { in: ["wes@example.com", "lou@example.com", "ada@example.com"] } } })).toBe(3);
  });

  it("is refused when an account got the email meanwhile", async () => {
    const pending = await createInvitation({ email: "meanwhile@example.com", role: "staff" }, TEST_BY);
    await createUser({ email: "meanwhile@example.com", name: "Meanwhile", role: "staff", password: PASSWORD }, TEST_BY);
    await expect(renewInvitation(pending.link.id, TEST_BY)).rejects.toThrow(new EmailTakenError("meanwhile@example.com"));
  });
});

import { describe, expect, it } from "vitest";
import { WeakPasswordError } from "@/lib/auth/account-errors";
import { deactivateUser, reactivateUser } from "@/lib/auth/accounts/team";
import { authenticate, createFirstOwner, createUser, EmailTakenError, findSessionUser, findUser, findUserIdByEmail, hasAnyUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Against a real SQLite file of its own.
setUpTestDatabase();

describe("accounts", () => {
  it("lets exactly one of many racing first-run setups create the owner", async () => {
    expect(await hasAnyUser()).toBe(false);
    const attempts = await Promise.all(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((who) => createFirstOwner({ email: `${who}@example.com`, name: who, password: "correct horse battery" }, null)),
    );
    expect(attempts.filter((owner) => owner !== null)).toHaveLength(1);
    expect(await hasAnyUser()).toBe(true);
    expect(await createFirstOwner({ email: "late@example.com", name: "late", password: "correct horse battery" }, null)).toBeNull();
  });

  it("stores a salted argon2id hash and signs in by email, case-insensitively", async () => {
    const user = await createUser({ email: "sam@example.com", name: "Sam", role: "staff", password: "a long passphrase" }, TEST_BY);
    expect(await authenticate("  SAM@example.com ", "a long passphrase", null)).toEqual({ ...user, signedInAt: expect.any(Date), factor: "password" });
    expect(await authenticate("sam@example.com", "a long passphrase!", null)).toBeNull();
    expect(await authenticate("nobody@example.com", "a long passphrase", null)).toBeNull();
    await expect(createUser({ email: "sam@example.com", name: "Sam 2", role: "staff", password: "another passphrase" }, TEST_BY)).rejects.toBeInstanceOf(EmailTakenError);
  });
});

describe("the rules for a new password", () => {
  it("refuses one that is easy to guess, or made of the account's own email, before anything is stored", async () => {
    await expect(createUser({ email: "weak@example.com", name: "Weak", role: "staff", password: "password1234" }, TEST_BY)).rejects.toThrow(
      new WeakPasswordError("password is too easy to guess: this is similar to a commonly used password"),
    );
    await expect(createUser({ email: "florentina@example.com", name: "Florentina", role: "staff", password: "florentina@example.com" }, TEST_BY)).rejects.toBeInstanceOf(WeakPasswordError);
    expect(await findUserIdByEmail("weak@example.com")).toBeNull();
    expect(await findUserIdByEmail("florentina@example.com")).toBeNull();
  });
});

describe("signing in", () => {
  it("records the last sign-in, and refuses a deactivated account as it refuses a wrong password", async () => {
    const owner = await createUser({ email: "olga@example.com", name: "Olga", role: "owner", password: "a long passphrase" }, TEST_BY);
    const user = await createUser({ email: "dee@example.com", name: "Dee", role: "staff", password: "a long passphrase" }, TEST_BY);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lastSignInAt).toBeNull();
    const before = Date.now();
    expect(await authenticate("dee@example.com", "a long passphrase", null)).toEqual({ ...user, signedInAt: expect.any(Date), factor: "password" });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lastSignInAt?.getTime()).toBeGreaterThanOrEqual(before - 1);

    await deactivateUser(user.id, TEST_BY);
    expect(await authenticate("dee@example.com", "a long passphrase", null)).toBeNull();
    expect(await findUser(user.id)).toBeNull();
    expect(await findSessionUser(user.id, new Date())).toBeNull();
    await reactivateUser(user.id, TEST_BY);
    expect(await authenticate("dee@example.com", "a long passphrase", null)).toEqual({ ...user, signedInAt: expect.any(Date), factor: "password" });
    expect(await findUser(user.id)).toEqual(user);
    // Sessions from before the deactivation stay void; the owner was never touched.
    expect(await findSessionUser(user.id, new Date(before - 2000))).toBeNull();
    expect(await findSessionUser(owner.id, new Date(before - 2000))).toEqual(owner);
  });

  it("dates a new session no earlier than the account's cut-off, so a clock behind another instance's cannot void it at birth", async () => {
    const user = await createUser({ email: "skew@example.com", name: "Skew", role: "staff", password: "a long passphrase" }, TEST_BY);
    const cutOff = new Date(Date.now() + 60_000);
    await db().user.update({ where: { id: user.id }, data: { sessionsValidFrom: cutOff } });
    const signedIn = await authenticate("skew@example.com", "a long passphrase", null);
    expect(signedIn?.signedInAt).toEqual(cutOff);
    expect(await findSessionUser(user.id, signedIn!.signedInAt)).toEqual(user);
    expect(await findSessionUser(user.id, new Date(cutOff.getTime() - 1))).toBeNull();
  });
});

import { describe, expect, it, vi } from "vitest";
import { EmailTakenError, TooManyAttemptsError, WeakPasswordError, WrongPasswordError } from "@/lib/auth/account-errors";
import { createPasswordReset, openLink } from "@/lib/auth/accounts/account-links";
import { changePassword, endOtherSessions, updateProfile } from "@/lib/auth/accounts/own-account";
import { authenticate, createUser, findSessionUser } from "@/lib/auth/accounts/users";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// A person's own account on a real database of the run's engine: what each
// change asks for, and which sessions it ends.

setUpTestDatabase();

const PASSWORD = "mossy granite kettle 42";
const NEW_PASSWORD = "purple otter drums loudly";

describe("the profile", () => {
  it("changes the name without the password, and the email only with it, withdrawing reset links sent to the old address", async () => {
    const user = await createUser({ email: "nia@example.com", name: "Nia", role: "staff", password: PASSWORD }, TEST_BY);
    const renamed = await updateProfile(user, { name: "Nia Fern", email: "nia@example.com", currentPassword: "" }, TEST_BY);
    expect(renamed).toEqual({ ...user, name: "Nia Fern" });

    await expect(updateProfile(renamed, { name: "Nia Fern", email: "nia.fern@example.com", currentPassword: "" }, TEST_BY)).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(updateProfile(renamed, { name: "Nia Fern", email: "nia.fern@example.com", currentPassword: "not it at all" }, TEST_BY)).rejects.toThrow("the current password is not right");
    const { secret } = await createPasswordReset({ userId: user.id }, TEST_BY);
    const moved = await updateProfile(renamed, { name: "Nia Fern", email: "nia.fern@example.com", currentPassword: PASSWORD }, TEST_BY);
    expect(moved.email).toBe("nia.fern@example.com");
    expect(await openLink("password_reset", secret)).toEqual({ state: "withdrawn" });
    expect(await authenticate("nia.fern@example.com", PASSWORD, null)).toMatchObject({ id: user.id });
  });

  it("refuses an email another account has", async () => {
    const user = await createUser({ email: "oda@example.com", name: "Oda", role: "staff", password: PASSWORD }, TEST_BY);
    await createUser({ email: "taken@example.com", name: "Taken", role: "staff", password: PASSWORD }, TEST_BY);
    await expect(updateProfile(user, { name: "Oda", email: "taken@example.com", currentPassword: PASSWORD }, TEST_BY)).rejects.toBeInstanceOf(EmailTakenError);
  });
});

describe("a new password", () => {
  it("needs the current one and a strong new one, then ends every session from before it", async () => {
    const user = await createUser({ email: "pia@example.com", name: "Pia", role: "staff", password: PASSWORD }, TEST_BY);
    const earlier = new Date(Date.now() - 1000);
    await expect(changePassword(user, "wrong password here", NEW_PASSWORD, TEST_BY)).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(changePassword(user, PASSWORD, "password1234", TEST_BY)).rejects.toBeInstanceOf(WeakPasswordError);
    expect(await findSessionUser(user.id, earlier)).toEqual(user);

    const { sessionsValidFrom } = await changePassword(user, PASSWORD, NEW_PASSWORD, TEST_BY);
    expect(await findSessionUser(user.id, earlier)).toBeNull();
    // The session that asked is issued again at the cut-off, and counts.
    expect(await findSessionUser(user.id, sessionsValidFrom)).toEqual(user);
    expect(await authenticate("pia@example.com", PASSWORD, null)).toBeNull();
    expect(await authenticate("pia@example.com", NEW_PASSWORD, null)).toMatchObject({ id: user.id });
  });

  it("refuses current passwords once the account has failed as many as sign-in allows", async () => {
    vi.stubEnv("RATE_LIMIT_SIGN_IN_ACCOUNT", "5/15m");
    const user = await createUser({ email: "quin@example.com", name: "Quin", role: "staff", password: PASSWORD }, TEST_BY);
    for (let attempt = 0; attempt < 5; attempt++) await expect(changePassword(user, `guess number ${attempt}`, NEW_PASSWORD, TEST_BY)).rejects.toBeInstanceOf(WrongPasswordError);
    // Even the right one: the account is waiting out its failures.
    await expect(changePassword(user, PASSWORD, NEW_PASSWORD, TEST_BY)).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(changePassword(user, PASSWORD, NEW_PASSWORD, TEST_BY)).rejects.toThrow(/^too many wrong passwords: wait 15 minutes, then try again$/);
  });
});

describe("sign out everywhere", () => {
  it("ends every session of the account from before it, and no one else's", async () => {
    const user = await createUser({ email: "rue@example.com", name: "Rue", role: "staff", password: PASSWORD }, TEST_BY);
    const other = await createUser({ email: "sol@example.com", name: "Sol", role: "staff", password: PASSWORD }, TEST_BY);
    const earlier = new Date(Date.now() - 1000);
    const { sessionsValidFrom } = await endOtherSessions(user);
    expect(await findSessionUser(user.id, earlier)).toBeNull();
    expect(await findSessionUser(user.id, sessionsValidFrom)).toEqual(user);
    expect(await findSessionUser(other.id, earlier)).toEqual(other);
  });
});

import { generateSync } from "otplib";
import { describe, expect, it, vi } from "vitest";
import { subjectHistory } from "@/lib/activity/history";
import { TooManyAttemptsError, WrongCodeError, WrongPasswordError } from "@/lib/auth/account-errors";
import { authOptions } from "@/lib/auth/sessions/auth-options";
import { openCodeChallenge } from "@/lib/auth/sessions/code-challenge";
import { hashRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from "@/lib/auth/second-factors/recovery-codes";
import { hasConfirmedTotp, spendSecondFactorCode } from "@/lib/auth/second-factors/second-factor";
import { matchTotpCode, sealTotpSecret } from "@/lib/auth/second-factors/totp";
import { confirmTotp, disableTotp, renewRecoveryCodes, startTotpSetup, totpStatus } from "@/lib/auth/second-factors/totp-factor";
import { createUser, findSessionUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// One-time codes (issue 24) on a real database of the run's engine: the
// window of a step either side, each step accepted once, recovery codes used
// once, wrong codes counted against the account's sign-in limit, the sign-in's
// second step through next-auth's own authorize, and what the app keeps.

const database = setUpTestDatabase();

const PASSWORD = "mossy granite kettle 42";
// A moment in the middle of a time step (step 60,000,000 starts at 1,800,000,000 s).
const NOW = new Date(1_800_000_010_000);
const STEP = 30_000;
const at = (steps: number) => new Date(NOW.getTime() + steps * STEP);
const codeAt = (secret: string, when: Date) => generateSync({ secret, epoch: Math.floor(when.getTime() / 1000) });

let made = 0;
async function person(): Promise<StaffUser> {
  made += 1;
  return createUser({ email: `totp${made}@example.com`, name: `Totp ${made}`, role: "staff", password: PASSWORD }, TEST_BY);
}

/** A person with an app confirmed at `when`: its seed and recovery codes. */
async function withApp(when = NOW): Promise<{ user: StaffUser; secret: string; recoveryCodes: string[] }> {
  const user = await person();
  const secret = await startTotpSetup(user);
  const { recoveryCodes } = await confirmTotp(user, codeAt(secret, when), TEST_BY, when);
  return { user, secret, recoveryCodes };
}

type Authorize = (credentials: unknown, request: { headers: Record<string, string> }) => Promise<{ id: string; factor?: string } | null>;
// next-auth merges a provider's options (its id among them) over its defaults when it starts: until then the id is in options.
type Configured = { id: string; options: { id?: string; authorize: Authorize } };
const provider = (id: "credentials" | "code") =>
  (authOptions().providers as unknown as Configured[]).find((each) => (each.options.id ?? each.id) === id)!.options.authorize;
const FORM = { headers: { [CLIENT_ADDRESS_HEADER]: "198.51.100.9", "user-agent": "Firefox/140.0" } };

/** Sign-in's first step for a person with an app: the ticket the form gets in place of a session. */
async function ticketFor(email: string): Promise<string> {
  const refusal = await provider("credentials")({ email, password: PASSWORD }, FORM).then(
    () => expect.fail("a password alone signed in"),
    (error: unknown) => (error as Error).message,
  );
  expect(refusal).toMatch(/^code-needed:/);
  return refusal.slice("code-needed:".length);
}

describe("the window", () => {
  it("accepts a code of now's step and of one step either side, and refuses two steps away", () => {
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const step = 60_000_000n;
    expect(matchTotpCode(secret, codeAt(secret, NOW), null, NOW)).toBe(step);
    expect(matchTotpCode(secret, codeAt(secret, at(-1)), null, NOW)).toBe(step - 1n);
    expect(matchTotpCode(secret, codeAt(secret, at(1)), null, NOW)).toBe(step + 1n);
    expect(matchTotpCode(secret, codeAt(secret, at(-2)), null, NOW)).toBeNull();
    expect(matchTotpCode(secret, codeAt(secret, at(2)), null, NOW)).toBeNull();
    // Spaces as apps show them ("123 456") are fine; anything but six digits is not a code.
    expect(matchTotpCode(secret, codeAt(secret, NOW).replace(/^(\d{3})/, "$1 "), null, NOW)).toBe(step);
    expect(matchTotpCode(secret, "12345", null, NOW)).toBeNull();
    // A later step already accepted (by an instance whose clock is ahead) refuses the whole window.
    expect(matchTotpCode(secret, codeAt(secret, at(1)), step + 1n, NOW)).toBeNull();
    expect(matchTotpCode(secret, codeAt(secret, at(1)), step + 5n, NOW)).toBeNull();
  });
});

describe("replay", () => {
  it("accepts each step once, and no step before the last accepted", async () => {
    const { user, secret } = await withApp();
    // Confirming spent NOW's step: its code, and the step before, are refused from then on.
    expect(await spendSecondFactorCode(user.id, codeAt(secret, NOW), NOW)).toBeNull();
    expect(await spendSecondFactorCode(user.id, codeAt(secret, at(-1)), NOW)).toBeNull();
    expect(await spendSecondFactorCode(user.id, codeAt(secret, at(1)), at(1))).toBe("totp");
    expect(await spendSecondFactorCode(user.id, codeAt(secret, at(1)), at(1))).toBeNull();
    expect(await spendSecondFactorCode(user.id, codeAt(secret, at(2)), at(2))).toBe("totp");
  });

  it("lets exactly one of two requests racing with the same code through", async () => {
    const { user, secret } = await withApp();
    const code = codeAt(secret, at(3));
    const outcomes = await Promise.all([spendSecondFactorCode(user.id, code, at(3)), spendSecondFactorCode(user.id, code, at(3))]);
    expect(outcomes.sort()).toEqual([null, "totp"]);
  });
});

describe("recovery codes", () => {
  it("are ten, kept only as SHA-256 digests, and each signs in once, however it is typed", async () => {
    const { user, recoveryCodes } = await withApp();
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    const stored = await db().recoveryCode.findMany({ where: { userId: user.id } });
    expect(stored.map((row) => row.codeHash).sort()).toEqual(recoveryCodes.map((code) => hashRecoveryCode(normalizeRecoveryCode(code)!)).sort());

    const [first, second] = recoveryCodes as [string, string];
    expect(await spendSecondFactorCode(user.id, first.toLowerCase().replace("-", " "), NOW)).toBe("recovery");
    expect(await spendSecondFactorCode(user.id, first, NOW)).toBeNull();
    expect(await spendSecondFactorCode(user.id, second, NOW)).toBe("recovery");
    expect((await totpStatus(user.id)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 2);
  });

  it("still sign in when the seed cannot be opened (NEXTAUTH_SECRET changed), while the app's codes are refused", async () => {
    const { user, secret, recoveryCodes } = await withApp();
    await db().totpFactor.update({ where: { userId: user.id }, data: { secret: sealTotpSecret(secret, "another app secret, 32 characters or more") } });
    expect(await spendSecondFactorCode(user.id, codeAt(secret, at(1)), at(1))).toBeNull();
    expect(await spendSecondFactorCode(user.id, recoveryCodes[0]!, at(1))).toBe("recovery");
  });

  it("renewed, replace every old one, used or not", async () => {
    const { user, secret, recoveryCodes } = await withApp();
    const renewed = await renewRecoveryCodes(user, codeAt(secret, at(1)), TEST_BY, at(1));
    expect(await spendSecondFactorCode(user.id, recoveryCodes[0]!, at(1))).toBeNull();
    expect(await spendSecondFactorCode(user.id, renewed.recoveryCodes[0]!, at(1))).toBe("recovery");
  });
});

describe("setting up and turning off", () => {
  it("signs no one in until confirmed; confirmed, ends the other sessions and is recorded, without the seed or a code", async () => {
    const user = await person();
    const secret = await startTotpSetup(user);
    expect(await hasConfirmedTotp(user.id)).toBe(false);
    expect(await spendSecondFactorCode(user.id, codeAt(secret, NOW), NOW)).toBeNull();
    await expect(confirmTotp(user, "000000", TEST_BY, NOW)).rejects.toBeInstanceOf(WrongCodeError);

    const earlier = new Date(NOW.getTime() - 1000);
    const confirmed = await confirmTotp(user, codeAt(secret, NOW), TEST_BY, NOW);
    expect(await hasConfirmedTotp(user.id)).toBe(true);
    expect(await findSessionUser(user.id, earlier)).toBeNull();
    expect(await findSessionUser(user.id, confirmed.sessionsValidFrom)).toEqual(user);
    expect((await subjectHistory("account", user.id, { limit: 5 })).entries[0]).toMatchObject({ action: "account.totp_enabled", changes: {} });
    // The seed is kept sealed, not as it was shown.
    const row = await db().totpFactor.findUniqueOrThrow({ where: { userId: user.id } });
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(secret);
  });

  it("turns off only with the password and a code, and then a password alone signs in", async () => {
    const { user, secret, recoveryCodes } = await withApp();
    await expect(disableTotp(user, "not the password", codeAt(secret, at(1)), TEST_BY, at(1))).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(disableTotp(user, PASSWORD, "123456", TEST_BY, at(1))).rejects.toBeInstanceOf(WrongCodeError);
    const { sessionsValidFrom } = await disableTotp(user, PASSWORD, recoveryCodes[0]!, TEST_BY, at(1));
    expect(sessionsValidFrom).toEqual(at(1));
    expect(await totpStatus(user.id)).toEqual({ state: "off", confirmedAt: null, recoveryCodesLeft: 0 });
    expect(await db().recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect((await subjectHistory("account", user.id, { limit: 5 })).entries[0]).toMatchObject({ action: "account.totp_disabled" });
    expect(await provider("credentials")({ email: user.email, password: PASSWORD }, FORM)).toMatchObject({ id: user.id, factor: "password" });
  });

  it("counts wrong codes on the Account page against the account's sign-in limit", async () => {
    vi.stubEnv("RATE_LIMIT_SIGN_IN_ACCOUNT", "5/15m");
    const { user, secret } = await withApp();
    for (let attempt = 0; attempt < 5; attempt++) await expect(renewRecoveryCodes(user, `00000${attempt}`, TEST_BY, at(1))).rejects.toBeInstanceOf(WrongCodeError);
    await expect(renewRecoveryCodes(user, codeAt(secret, at(1)), TEST_BY, at(1))).rejects.toBeInstanceOf(TooManyAttemptsError);
  });
});

describe("signing in with a code", () => {
  it("asks for a code after the right password, then signs in with a code or a recovery code, once each", async () => {
    // Confirmed a minute ago, so that now's code is of a later step.
    const { user, secret, recoveryCodes } = await withApp(new Date(Date.now() - 60_000));
    // A wrong password says nothing of the app.
    expect(await provider("credentials")({ email: user.email, password: "not the password" }, FORM)).toBeNull();
    const ticket = await ticketFor(user.email);
    expect(ticket).not.toContain(user.id);
    expect(openCodeChallenge(ticket)).toEqual({ userId: user.id, account: user.email });
    expect(openCodeChallenge(ticket, new Date(Date.now() + 6 * 60 * 1000))).toBeNull();

    const now = new Date();
    expect(await provider("code")({ ticket, code: codeAt(secret, now) }, FORM)).toMatchObject({ id: user.id, factor: "totp" });
    await expect(provider("code")({ ticket, code: codeAt(secret, now) }, FORM)).rejects.toThrow(/^wrong-code$/);
    expect(await provider("code")({ ticket: await ticketFor(user.email), code: recoveryCodes[0] }, FORM)).toMatchObject({ id: user.id, factor: "recovery" });
    await expect(provider("code")({ ticket, code: recoveryCodes[0] }, FORM)).rejects.toThrow(/^wrong-code$/);
    await expect(provider("code")({ ticket: "v1.made.up.ticket", code: recoveryCodes[1] }, FORM)).rejects.toThrow(/^challenge-expired$/);

    const signIns = (await subjectHistory("account", user.id, { limit: 10 })).entries.filter((entry) => entry.action.startsWith("sign_in."));
    expect(signIns.map((entry) => [entry.action, entry.changes])).toEqual([
      ["sign_in.failed", { after: { email: user.email, reason: "wrong code" } }],
      ["sign_in.succeeded", { after: { factor: "recovery" } }],
      ["sign_in.failed", { after: { email: user.email, reason: "wrong code" } }],
      ["sign_in.succeeded", { after: { factor: "totp" } }],
      ["sign_in.failed", { after: { email: user.email, reason: "wrong password" } }],
    ]);
  });

  it("puts how the session signed in in its token (the factor claim)", () => {
    const jwt = authOptions().callbacks!.jwt! as unknown as (params: { token: Record<string, unknown>; user?: Record<string, unknown> }) => Record<string, unknown>;
    expect(jwt({ token: { sub: "u1" }, user: { id: "u1", signedInAt: 5, factor: "recovery" } })).toEqual({ sub: "u1", signedInAt: 5, factor: "recovery" });
    // Later requests pass the token alone: it keeps its claims.
    expect(jwt({ token: { sub: "u1", signedInAt: 5, factor: "totp" } })).toEqual({ sub: "u1", signedInAt: 5, factor: "totp" });
  });

  it("counts wrong codes against the account's limit like passwords, and a right password does not reset it", async () => {
    vi.stubEnv("RATE_LIMIT_SIGN_IN_ACCOUNT", "5/15m");
    const { user, secret } = await withApp(new Date(Date.now() - 60_000));
    const ticket = await ticketFor(user.email);
    for (let attempt = 0; attempt < 4; attempt++) await expect(provider("code")({ ticket, code: `99999${attempt}` }, FORM)).rejects.toThrow(/^wrong-code$/);
    // The password again, right, gives a new ticket but forgives nothing.
    const again = await ticketFor(user.email);
    await expect(provider("code")({ ticket: again, code: "999994" }, FORM)).rejects.toThrow(/^wrong-code$/);
    await expect(provider("code")({ ticket: again, code: codeAt(secret, new Date()) }, FORM)).rejects.toThrow(/^rate-limited:\d+$/);
    await expect(provider("credentials")({ email: user.email, password: PASSWORD }, FORM)).rejects.toThrow(/^rate-limited:\d+$/);
  });
});

describe("what is kept", () => {
  it("has no seed, code or recovery code in the activity record", async () => {
    const { user, secret, recoveryCodes } = await withApp();
    await spendSecondFactorCode(user.id, recoveryCodes[0]!, NOW);
    await disableTotp(user, PASSWORD, codeAt(secret, at(1)), TEST_BY, at(1));
    const stored = JSON.stringify(await database.query("SELECT * FROM activity"), (_, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    const codes = [codeAt(secret, NOW), codeAt(secret, at(1))];
    for (const text of [secret, ...codes, ...recoveryCodes, ...recoveryCodes.map((code) => normalizeRecoveryCode(code)!)]) expect(stored).not.toContain(text);
  });
});

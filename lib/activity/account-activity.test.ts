import { describe, expect, it } from "vitest";
import { NO_ACCOUNT } from "@/lib/activity/account-records";
import { type Attribution, cliActor, personActor } from "@/lib/activity/actor";
import { type ActivityEntry, subjectHistory } from "@/lib/activity/history";
import type { SubjectKind } from "@/lib/activity/record";
import { EmailTakenError, LastOwnerError, LinkUnusableError, WeakPasswordError, WrongPasswordError } from "@/lib/auth/account-errors";
import { acceptInvitation, createInvitation, createPasswordReset, resetPassword, withdrawInvitation } from "@/lib/auth/accounts/account-links";
import { authOptions } from "@/lib/auth/sessions/auth-options";
import { renewInvitation } from "@/lib/auth/accounts/invitation-renewal";
import { hashLinkSecret } from "@/lib/auth/accounts/link-secret";
import { changePassword, updateProfile } from "@/lib/auth/accounts/own-account";
import { changeRole, deactivateUser, reactivateUser } from "@/lib/auth/accounts/team";
import { authenticate, createFirstOwner, createUser, type StaffUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// The activity record of accounts (issue 22) on a real database of the run's
// engine: invitations made, replaced and withdrawn, accounts joined, created
// and changed, deactivated and reactivated, passwords changed and reset, and
// sign-ins that succeeded or failed, each with who and from where, and only
// the fields that changed; none for a refused change; never a password, a
// hash or a link's secret; and the record and the change commit together.

const database = setUpTestDatabase();

const PASSWORD = "mossy granite kettle 42";
const NEW_PASSWORD = "purple otter drums loudly";
const ORIGIN = { clientAddress: "203.0.113.7", userAgent: "Firefox/140.0", requestId: null };
const OPERATOR: Attribution = { actor: cliActor("ops"), origin: null };

const records = async (kind: SubjectKind, id: string) => (await subjectHistory(kind, id, { limit: 100 })).entries;
const latest = async (kind: SubjectKind, id: string): Promise<ActivityEntry | undefined> => (await records(kind, id))[0];
const count = async () => Number((await database.query<{ n: unknown }>("SELECT count(*) AS n FROM activity"))[0]!.n);
const as = (user: StaffUser): Attribution => ({ actor: personActor(user), origin: ORIGIN });
const personEntry = (user: StaffUser) => ({ kind: "person", userId: user.id, tokenId: null, name: user.name });
const APP_ENTRY = { kind: "app", userId: null, tokenId: null, name: "" };

let made = 0;
/** An account made by the operator, with a fresh email. */
function member(name: string, role: "owner" | "staff" = "staff"): Promise<StaffUser> {
  return createUser({ email: `${name.toLowerCase()}.${made++}@example.com`, name, role, password: PASSWORD }, OPERATOR);
}

describe("accounts' activity", () => {
  // First: the first owner can only be made while no account exists.
  it("records the first owner, made at /setup, as joined by themself, and nothing for a setup that came too late", async () => {
    const owner = await createFirstOwner({ email: "first@example.com", name: "First Owner", password: PASSWORD }, ORIGIN);
    expect(owner).not.toBeNull();
    expect(await records("account", owner!.id)).toEqual([
      expect.objectContaining({
        action: "account.joined",
        actor: personEntry(owner!),
        origin: ORIGIN,
        changes: { after: { name: "First Owner", email: "first@example.com", role: "owner" } },
      }),
    ]);
    const before = await count();
    expect(await createFirstOwner({ email: "late@example.com", name: "Late", password: PASSWORD }, ORIGIN)).toBeNull();
    expect(await count()).toBe(before);
  });

  it("records an account the CLI creates as created by the CLI, with the operator's OS user", async () => {
    const ivy = await createUser({ email: "ivy.cli@example.com", name: "Ivy", role: "staff", password: PASSWORD }, OPERATOR);
    expect(await records("account", ivy.id)).toEqual([
      expect.objectContaining({
        action: "account.created",
        actor: { kind: "cli", userId: null, tokenId: null, name: "ops" },
        origin: { clientAddress: null, userAgent: null, requestId: null },
        changes: { after: { name: "Ivy", email: "ivy.cli@example.com", role: "staff" } },
      }),
    ]);
  });

  it("records an invitation made, replaced, renewed and withdrawn, under the invitation, then the account its invitee joins as", async () => {
    const olive = await member("Olive", "owner");
    const first = await createInvitation({ email: "nia@example.com", role: "staff" }, as(olive));
    expect(await records("invitation", first.link.id)).toEqual([
      expect.objectContaining({ action: "account.invited", actor: personEntry(olive), origin: ORIGIN, changes: { after: { email: "nia@example.com", role: "staff" } } }),
    ]);

    // A new invitation for the same email replaces the pending one; the old one's history says by which.
    const second = await createInvitation({ email: "nia@example.com", role: "owner" }, OPERATOR);
    expect(await latest("invitation", first.link.id)).toMatchObject({
      action: "account.invitation_withdrawn",
      actor: { kind: "cli", name: "ops" },
      changes: { before: { email: "nia@example.com", role: "staff" }, after: { replacedBy: second.link.id } },
    });
    const renewed = await renewInvitation(second.link.id, as(olive));
    expect(await latest("invitation", renewed!.link.id)).toMatchObject({ action: "account.invited", actor: personEntry(olive), changes: { after: { email: "nia@example.com", role: "owner" } } });
    expect(await latest("invitation", second.link.id)).toMatchObject({ action: "account.invitation_withdrawn", changes: { after: { replacedBy: renewed!.link.id } } });

    const nia = await acceptInvitation(renewed!.secret, { name: "Nia", password: PASSWORD }, ORIGIN);
    expect(await records("account", nia.id)).toEqual([
      expect.objectContaining({ action: "account.joined", actor: personEntry(nia), origin: ORIGIN, changes: { after: { name: "Nia", email: "nia@example.com", role: "owner" } } }),
    ]);

    const other = await createInvitation({ email: "wes@example.com", role: "staff" }, as(olive));
    expect(await withdrawInvitation(other.link.id, as(olive))).toBe(true);
    expect(await latest("invitation", other.link.id)).toMatchObject({
      action: "account.invitation_withdrawn",
      actor: personEntry(olive),
      origin: ORIGIN,
      changes: { before: { email: "wes@example.com", role: "staff" } },
    });
  });

  it("records a person's own name and email changes, only the fields that changed", async () => {
    const kit = await member("Kit");
    const renamed = await updateProfile(kit, { name: "Kit Fern", email: kit.email, currentPassword: "" }, as(kit));
    expect(await latest("account", kit.id)).toMatchObject({ action: "account.changed", actor: personEntry(kit), origin: ORIGIN, changes: { before: { name: "Kit" }, after: { name: "Kit Fern" } } });
    await updateProfile(renamed, { name: "Kit Fern", email: "kit.fern@example.com", currentPassword: PASSWORD }, as(renamed));
    expect((await latest("account", kit.id))!.changes).toEqual({ before: { email: kit.email }, after: { email: "kit.fern@example.com" } });
    // Saved as it was: nothing changed, nothing recorded.
    const before = await count();
    await updateProfile({ ...renamed, email: "kit.fern@example.com" }, { name: "Kit Fern", email: "kit.fern@example.com", currentPassword: "" }, as(renamed));
    expect(await count()).toBe(before);
  });

  it("records an owner's role change, deactivation and reactivation of someone, with the status and role before and after", async () => {
    const olive = await member("Olive", "owner");
    const sam = await member("Sam");
    await changeRole(sam.id, "owner", as(olive));
    await deactivateUser(sam.id, as(olive));
    await reactivateUser(sam.id, OPERATOR);
    const [reactivated, deactivated, promoted] = await records("account", sam.id);
    expect(promoted).toMatchObject({ action: "account.changed", actor: personEntry(olive), origin: ORIGIN, changes: { before: { role: "staff" }, after: { role: "owner" } } });
    expect(deactivated).toMatchObject({ action: "account.deactivated", actor: personEntry(olive), changes: { before: { status: "active" }, after: { status: "deactivated" } } });
    expect(reactivated).toMatchObject({ action: "account.reactivated", actor: { kind: "cli", name: "ops" }, changes: { before: { status: "deactivated" }, after: { status: "active" } } });
  });

  it("records a password changed and a password reset as the fact alone, the reset as its account's own, and the link made for it", async () => {
    const pia = await member("Pia");
    await changePassword(pia, PASSWORD, NEW_PASSWORD, as(pia));
    expect(await latest("account", pia.id)).toMatchObject({ action: "password.changed", actor: personEntry(pia), origin: ORIGIN, changes: {} });

    const olive = await member("Olive", "owner");
    const { secret } = await createPasswordReset({ userId: pia.id }, as(olive));
    expect(await latest("account", pia.id)).toMatchObject({ action: "password.reset_requested", actor: personEntry(olive), changes: { after: { email: pia.email } } });
    await resetPassword(secret, "another mossy kettle 43", ORIGIN);
    expect(await latest("account", pia.id)).toMatchObject({ action: "password.reset", actor: personEntry(pia), origin: ORIGIN, changes: {} });
  });

  it("records nothing for a refused change", async () => {
    const lone = await member("Lone", "owner");
    // Other owners may exist from earlier tests: this one is the last only once they are staff.
    for (const other of await db().user.findMany({ where: { role: "owner", id: { not: lone.id } } })) await changeRole(other.id, "staff", OPERATOR);
    const taken = await member("Taken");
    const { secret: used } = await createInvitation({ email: "used@example.com", role: "staff" }, OPERATOR);
    await acceptInvitation(used, { name: "Used", password: PASSWORD }, ORIGIN);
    const { secret: expired, link } = await createInvitation({ email: "expired@example.com", role: "staff" }, OPERATOR);
    await db().accountLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await count();

    await expect(changeRole(lone.id, "staff", as(lone))).rejects.toBeInstanceOf(LastOwnerError);
    await expect(deactivateUser(lone.id, as(lone))).rejects.toBeInstanceOf(LastOwnerError);
    await changeRole(taken.id, "staff", as(lone));
    await reactivateUser(taken.id, as(lone));
    await expect(createInvitation({ email: taken.email, role: "staff" }, as(lone))).rejects.toBeInstanceOf(EmailTakenError);
    await expect(updateProfile(lone, { name: "Lone", email: taken.email, currentPassword: PASSWORD }, as(lone))).rejects.toBeInstanceOf(EmailTakenError);
    await expect(updateProfile(lone, { name: "Lone", email: "elsewhere@example.com", currentPassword: "not the password" }, as(lone))).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(changePassword(lone, "not the password", NEW_PASSWORD, as(lone))).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(changePassword(lone, PASSWORD, "password1234", as(lone))).rejects.toBeInstanceOf(WeakPasswordError);
    await expect(acceptInvitation(used, { name: "Again", password: PASSWORD }, ORIGIN)).rejects.toBeInstanceOf(LinkUnusableError);
    await expect(acceptInvitation(expired, { name: "Late", password: PASSWORD }, ORIGIN)).rejects.toBeInstanceOf(LinkUnusableError);
    await expect(resetPassword(used, NEW_PASSWORD, ORIGIN)).rejects.toBeInstanceOf(LinkUnusableError);
    expect(await withdrawInvitation(link.id, as(lone))).toBe(false);
    await expect(createUser({ email: taken.email, name: "Twin", role: "staff", password: PASSWORD }, OPERATOR)).rejects.toBeInstanceOf(EmailTakenError);
    expect(await count()).toBe(before);
  });
});

describe("sign-ins' activity", () => {
  it("records a success as the person's, a failure as noticed by the app under the account tried, and an unknown email under no account, each from where", async () => {
    const dee = await member("Dee");
    expect(await authenticate(dee.email.toUpperCase(), PASSWORD, ORIGIN)).toMatchObject({ id: dee.id });
    expect(await latest("account", dee.id)).toMatchObject({ action: "sign_in.succeeded", actor: personEntry(dee), origin: ORIGIN, changes: {} });

    expect(await authenticate(` ${dee.email.toUpperCase()} `, "not the password", ORIGIN)).toBeNull();
    expect(await latest("account", dee.id)).toMatchObject({ action: "sign_in.failed", actor: APP_ENTRY, origin: ORIGIN, changes: { after: { email: dee.email, reason: "wrong password" } } });
    await deactivateUser(dee.id, OPERATOR);
    expect(await authenticate(dee.email, PASSWORD, ORIGIN)).toBeNull();
    expect((await latest("account", dee.id))!.changes).toEqual({ after: { email: dee.email, reason: "deactivated" } });

    expect(await authenticate("Nobody.Here@Example.com", PASSWORD, ORIGIN)).toBeNull();
    expect(await latest("account", NO_ACCOUNT)).toMatchObject({ action: "sign_in.failed", actor: APP_ENTRY, origin: ORIGIN, changes: { after: { email: "nobody.here@example.com", reason: "unknown email" } } });
    // A password typed in the email field is not kept.
    expect(await authenticate("my secret passphrase", PASSWORD, ORIGIN)).toBeNull();
    expect((await latest("account", NO_ACCOUNT))!.changes).toEqual({ after: { email: null, reason: "unknown email" } });
  });

  it("records the sign-in form's attempts from the client's address and User-Agent, and none for a form refused before a password was checked", async () => {
    // The function the form's POST reaches, as next-auth calls it (it keeps the one given under `options`).
    const { authorize } = (authOptions().providers[0] as unknown as { options: { authorize: (credentials: unknown, request: { headers: Record<string, string> }) => Promise<{ id: string } | null> } }).options;
    const form = { headers: { [CLIENT_ADDRESS_HEADER]: "198.51.100.4", "user-agent": "Safari/18.2" } };
    const fromForm = { clientAddress: "198.51.100.4", userAgent: "Safari/18.2", requestId: null };
    const eve = await member("Eve");

    expect(await authorize({ email: eve.email, password: PASSWORD }, form)).toMatchObject({ id: eve.id });
    expect(await latest("account", eve.id)).toMatchObject({ action: "sign_in.succeeded", origin: fromForm });
    // The account's allowance of failures (RATE_LIMIT_SIGN_IN_ACCOUNT, 5), each recorded.
    for (let attempt = 0; attempt < 5; attempt++) expect(await authorize({ email: eve.email, password: `guess ${attempt}` }, form)).toBeNull();
    const failures = (await records("account", eve.id)).filter((entry) => entry.action === "sign_in.failed");
    expect(failures).toHaveLength(5);
    expect(failures[0]).toMatchObject({ actor: APP_ENTRY, origin: fromForm });

    const before = await count();
    await expect(authorize({ email: eve.email, password: PASSWORD }, form)).rejects.toThrow(/^rate-limited:\d+$/);
    expect(await authorize({ email: "", password: PASSWORD }, form)).toBeNull();
    expect(await authorize({ email: eve.email }, form)).toBeNull();
    expect(await count()).toBe(before);
  });
});

describe("what a record never holds", () => {
  it("has no password, password hash, link secret or link hash anywhere in the stored records", async () => {
    const olive = await member("Olive", "owner");
    const invitation = await createInvitation({ email: "quiet@example.com", role: "staff" }, as(olive));
    const quiet = await acceptInvitation(invitation.secret, { name: "Quiet", password: PASSWORD }, ORIGIN);
    await changePassword(quiet, PASSWORD, NEW_PASSWORD, as(quiet));
    const reset = await createPasswordReset({ userId: quiet.id }, as(olive));
    await resetPassword(reset.secret, "third mossy kettle 44", ORIGIN);
    await authenticate(quiet.email, "third mossy kettle 44", ORIGIN);
    await authenticate(quiet.email, "a wrong one entirely", ORIGIN);

    const stored = JSON.stringify(await database.query("SELECT * FROM activity"), (_, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    const hashes = (await database.query<{ password_hash: string }>("SELECT password_hash FROM users")).map((row) => row.password_hash);
    const secrets = [invitation.secret, reset.secret].flatMap((secret) => [secret, hashLinkSecret(secret)]);
    // Those typed at sign-in too, the one typed in the email field (by the sign-ins above) included.
    const typed = [PASSWORD, NEW_PASSWORD, "third mossy kettle 44", "a wrong one entirely", "my secret passphrase"];
    for (const text of [...typed, "argon2", ...hashes, ...secrets]) expect(stored).not.toContain(text);
  });
});

describe("a change and its record", () => {
  it("commit together: when the record cannot be written, neither is the change", async () => {
    const olive = await member("Olive", "owner");
    const sam = await member("Sam");
    await database.query('ALTER TABLE "activity" RENAME TO "activity_away"');
    try {
      await expect(createInvitation({ email: "orphan@example.com", role: "staff" }, as(olive))).rejects.toThrow();
      await expect(changeRole(sam.id, "owner", as(olive))).rejects.toThrow();
      await expect(authenticate(sam.email, PASSWORD, ORIGIN)).rejects.toThrow();
    } finally {
      await database.query('ALTER TABLE "activity_away" RENAME TO "activity"');
    }
    expect(await db().accountLink.count({ where: { email: "orphan@example.com" } })).toBe(0);
    expect(await db().user.findUnique({ where: { id: sam.id }, select: { role: true, lastSignInAt: true } })).toEqual({ role: "staff", lastSignInAt: null });
  });
});

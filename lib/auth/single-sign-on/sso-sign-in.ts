import { randomUUID } from "node:crypto";
import { accountRecord, NO_ACCOUNT } from "@/lib/activity/account-records";
import { personActor, type RequestOrigin } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { joinByInvitationFor } from "@/lib/auth/accounts/account-links";
import { type FactorSignIn, recordSignIn, recordSignInFailure, type StaffUser, toStaffUser } from "@/lib/auth/accounts/users";
import { hasConfirmedTotp } from "@/lib/auth/second-factors/second-factor";
import type { SessionFactor } from "@/lib/auth/session-factor";
import { issueCodeChallenge } from "@/lib/auth/sessions/code-challenge";
import { type Prisma, type User } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";
import { emailSchema, personNameSchema } from "@/lib/validations/user";
import type { Role } from "@/lib/validations/user-options";

// Who a single sign-on lets in, and as whom (issue 34). next-auth has checked
// the provider's answer by now (state, PKCE, the ID token's signature, issuer,
// audience, expiry and nonce: lib/auth/single-sign-on/sso-provider.ts); this
// decides on its claims:
// - the email must be verified by the provider (email_verified: true), or
//   nobody is signed in and nothing is linked;
// - an identity already linked (issuer + sub) is its account's, whatever its
//   email is now;
// - else a verified email of an active account links the identity to it;
// - else a pending invitation for the email makes the account, with the
//   invited role, and uses the invitation up;
// - else an email of OIDC_ALLOWED_DOMAINS makes a staff account;
// - else, or for a deactivated account, nothing is made and the person is
//   refused, with the reason recorded as a failed sign-in.
// An account made here has no password (an empty hash verifies nothing): the
// provider is its way in, until its owner sets a password (a reset link).

/** The ID token's claims this reads, as the provider sent them. */
export type SsoClaims = { iss?: unknown; sub?: unknown; email?: unknown; email_verified?: unknown; name?: unknown; amr?: unknown };

export type SsoRefusal = "sso-unverified" | "sso-refused" | "sso-deactivated";

export type SsoOutcome =
  | { outcome: "signed_in"; user: FactorSignIn }
  /** The person has an authenticator app and the provider did not ask for a second factor: the code step follows, with this ticket. */
  | { outcome: "code_needed"; ticket: string }
  | { outcome: "refused"; reason: SsoRefusal };

// RFC 8176's methods that are, or include, a second factor: multiple factors,
// a one-time password, a hardware- or software-secured key, SMS, a fingerprint,
// a face, an iris or a retina.
const SECOND_FACTOR_METHODS: ReadonlySet<string> = new Set(["mfa", "otp", "hwk", "swk", "sms", "fpt", "face", "iris", "retina"]);

/** "sso_mfa" when the ID token's amr says the provider required a second factor, "sso" otherwise. */
export function ssoFactor(amr: unknown): SessionFactor {
  return Array.isArray(amr) && amr.some((method) => typeof method === "string" && SECOND_FACTOR_METHODS.has(method)) ? "sso_mfa" : "sso";
}

type Identity = { issuer: string; subject: string; email: string; name: string };

/** The identity the claims name, with its verified email; null when they name none (no issuer, subject or email address). */
function identityOf(claims: SsoClaims): Identity | null {
  const email = emailSchema.safeParse(claims.email);
  if (typeof claims.iss !== "string" || typeof claims.sub !== "string" || claims.sub === "" || !email.success) return null;
  const name = personNameSchema.safeParse(claims.name);
  const address = email.data.toLowerCase();
  return { issuer: claims.iss, subject: claims.sub, email: address, name: name.success ? name.data : address.split("@")[0]! };
}

/** Signs in whoever the provider's claims name, as above; `allowedDomains` are OIDC_ALLOWED_DOMAINS. */
export async function signInWithSso(claims: SsoClaims, allowedDomains: readonly string[], origin: RequestOrigin | null): Promise<SsoOutcome> {
  const identity = identityOf(claims);
  if (!identity || claims.email_verified !== true) {
    // What the provider called the email is kept only when it is an email address (recordSignInFailure).
    await recordSignInFailure(NO_ACCOUNT, typeof claims.email === "string" ? claims.email : "", "single sign-on: email not verified", origin);
    return { outcome: "refused", reason: "sso-unverified" };
  }
  const found = await serializableTransaction((tx) => findOrMakeAccount(tx, identity, allowedDomains, origin));
  if ("refused" in found) {
    const reason = found.refused === "sso-deactivated" ? "single sign-on: account deactivated" : "single sign-on: no account or invitation";
    await recordSignInFailure(found.userId ?? NO_ACCOUNT, identity.email, reason, origin);
    return { outcome: "refused", reason: found.refused };
  }
  const factor = ssoFactor(claims.amr);
  // The provider's own second factor stands for the person's; without it, their authenticator app is asked for.
  if (factor === "sso" && (await hasConfirmedTotp(found.user.id))) {
    return { outcome: "code_needed", ticket: issueCodeChallenge({ userId: found.user.id, account: found.user.email }) };
  }
  return { outcome: "signed_in", user: await recordSignIn(found.user, factor, origin) };
}

type Found = { user: StaffUser } | { refused: Exclude<SsoRefusal, "sso-unverified">; userId?: string };

async function findOrMakeAccount(tx: Prisma.TransactionClient, identity: Identity, allowedDomains: readonly string[], origin: RequestOrigin | null): Promise<Found> {
  const now = new Date();
  const linked = await tx.ssoIdentity.findUnique({ where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } }, include: { user: true } });
  if (linked) {
    if (linked.user.deactivatedAt) return { refused: "sso-deactivated", userId: linked.userId };
    if (linked.email !== identity.email) await tx.ssoIdentity.update({ where: { id: linked.id }, data: { email: identity.email } });
    return { user: toStaffUser(linked.user) };
  }
  const account = await tx.user.findUnique({ where: { email: identity.email }, include: { ssoIdentities: { where: { issuer: identity.issuer } } } });
  if (account) {
    if (account.deactivatedAt) return { refused: "sso-deactivated", userId: account.id };
    // The account is linked to another person of this provider already (an address given to someone new): not theirs.
    if (account.ssoIdentities.length > 0) return { refused: "sso-refused", userId: account.id };
    await link(tx, account, identity, now, origin);
    return { user: toStaffUser(account) };
  }
  const join = async (role: Role, via: string): Promise<User> => {
    // No password: an empty hash verifies nothing (lib/auth/passwords/passwords.ts).
    const user = await tx.user.create({ data: { id: randomUUID(), email: identity.email, name: identity.name, role, passwordHash: "", createdAt: now } });
    const joined = toStaffUser(user);
    await recordActivity(tx, [accountRecord("account.joined", joined.id, { after: { name: joined.name, email: joined.email, role: joined.role, via } }, { actor: personActor(joined), origin })], now);
    await link(tx, user, identity, now, origin);
    return user;
  };
  const invited = await joinByInvitationFor(tx, identity.email, now, (invitation) => join(invitation.role ?? "staff", "an invitation, by single sign-on"));
  if (invited) return { user: toStaffUser(invited) };
  const domain = identity.email.split("@")[1]!;
  if (!allowedDomains.includes(domain)) return { refused: "sso-refused" };
  return { user: toStaffUser(await join("staff", `single sign-on, as ${domain} may join`)) };
}

/** Links the identity to the account, recorded as the account's own doing. */
async function link(tx: Prisma.TransactionClient, account: User, identity: Identity, now: Date, origin: RequestOrigin | null): Promise<void> {
  await tx.ssoIdentity.create({ data: { id: randomUUID(), userId: account.id, issuer: identity.issuer, subject: identity.subject, email: identity.email, linkedAt: now } });
  const by = { actor: personActor(toStaffUser(account)), origin };
  await recordActivity(tx, [accountRecord("account.sso_linked", account.id, { after: { issuer: identity.issuer, email: identity.email } }, by)], now);
}

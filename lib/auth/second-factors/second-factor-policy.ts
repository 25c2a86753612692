import type { Attribution } from "@/lib/activity/actor";
import type { StaffUser } from "@/lib/auth/accounts/users";
import { readSetting, saveSetting } from "@/lib/auth/store-settings";
import { db, type Prisma } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";
import type { Role } from "@/lib/validations/user-options";
import type { SessionFactor } from "@/lib/auth/session-factor";
import { secondFactorPolicySchema } from "@/lib/validations/second-factor-policy";
import type { SecondFactorPolicy } from "@/lib/validations/second-factor-policy-options";

// The owners' policy on second factors (issue 24), kept in the settings table
// under one key: absent (a store from before it) reads as "off". Who has a
// second factor is read from the factors' own tables, never cached, so that a
// factor added, removed or cleared counts on the next request of every instance.

export const SECOND_FACTOR_POLICY_KEY = "second_factor_policy";

type Client = Prisma.TransactionClient;

export async function readSecondFactorPolicy(client: Client = db()): Promise<SecondFactorPolicy> {
  return readSetting(client, SECOND_FACTOR_POLICY_KEY, secondFactorPolicySchema, { absent: "off", unknown: "everyone" });
}

/** Whether `policy` requires a person of `role` to have a second factor. */
export function policyRequires(policy: SecondFactorPolicy, role: Role): boolean {
  return policy === "everyone" || (policy === "owners" && role === "owner");
}

/**
 * Whether the person has a second factor: an authenticator app they confirmed
 * with a first code (one being set up signs no one in), or a passkey.
 */
export async function hasSecondFactor(userId: string, client: Client = db()): Promise<boolean> {
  const [totp, passkey] = await Promise.all([
    client.totpFactor.findFirst({ where: { userId, confirmedAt: { not: null } }, select: { userId: true } }),
    client.passkey.findFirst({ where: { userId }, select: { id: true } }),
  ]);
  return totp !== null || passkey !== null;
}

/** Whether the store's policy requires this person to have a second factor. */
export async function secondFactorRequired(user: Pick<StaffUser, "role">, client: Client = db()): Promise<boolean> {
  return policyRequires(await readSecondFactorPolicy(client), user.role);
}

/** Whether a session's `factor` claim says it passed a second factor; a session from before the claim did not. */
export function sessionPassedSecondFactor(factor: SessionFactor | undefined): boolean {
  return factor !== undefined && factor !== "password" && factor !== "sso";
}

/**
 * Where a signed-in session stands: free to go on; held until the person sets
 * up the second factor the policy requires of them; or to be signed in again,
 * since the person has a second factor and this session did not pass it (it
 * predates the claim, or the factor).
 */
export type SecondFactorStanding = "passed" | "set_up" | "sign_in_again";

export async function secondFactorStanding(user: Pick<StaffUser, "id" | "role">, factor: SessionFactor | undefined): Promise<SecondFactorStanding> {
  // A single sign-on whose provider asked for a second factor (issue 34) has passed one: the policy's purpose is met.
  if (factor === "sso_mfa") return "passed";
  const [has, required] = await Promise.all([hasSecondFactor(user.id), secondFactorRequired(user)]);
  if (has) return sessionPassedSecondFactor(factor) ? "passed" : "sign_in_again";
  return required ? "set_up" : "passed";
}

/** The owner would be held by the policy they chose: they set up a factor first, so that no owner locks themself out. */
export class SecondFactorPolicyNotMetError extends Error {
  override name = "SecondFactorPolicyNotMetError";

  constructor(readonly policy: SecondFactorPolicy) {
    super("set up a second factor for yourself (an authenticator app or a passkey, on your Account page) before you require one");
  }
}

/**
 * Sets the store's policy, as `owner` chose it, and records it (settings.changed)
 * in its transaction; a policy that is already the store's changes and records
 * nothing. Refuses a policy that would hold `owner` themself
 * (SecondFactorPolicyNotMetError). SERIALIZABLE, so that the owner's own factor
 * cannot be removed between the check and the change.
 */
export async function changeSecondFactorPolicy(policy: SecondFactorPolicy, owner: Pick<StaffUser, "id" | "role">, by: Attribution): Promise<{ before: SecondFactorPolicy; after: SecondFactorPolicy }> {
  return serializableTransaction(async (tx) => {
    const before = await readSecondFactorPolicy(tx);
    if (before === policy) return { before, after: policy };
    if (policyRequires(policy, owner.role) && !(await hasSecondFactor(owner.id, tx))) throw new SecondFactorPolicyNotMetError(policy);
    await saveSetting(tx, SECOND_FACTOR_POLICY_KEY, "secondFactorPolicy", { before, after: policy }, by);
    return { before, after: policy };
  });
}

/**
 * Whether this session may create an API token in the staff app: a token
 * outlives the session and skips every second factor, so a person who has one
 * makes tokens only from a session that passed it. Tokens already made, and
 * the CLI's, are not affected.
 */
export async function mayCreateApiToken(userId: string, factor: SessionFactor | undefined): Promise<boolean> {
  return sessionPassedSecondFactor(factor) || !(await hasSecondFactor(userId));
}

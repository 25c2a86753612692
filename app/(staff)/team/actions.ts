"use server";

import { revalidatePath } from "next/cache";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { actionAttribution } from "@/lib/activity/action-attribution";
import { AccountDeactivatedError, AccountNotFoundError, EmailTakenError, LastOwnerError } from "@/lib/auth/account-errors";
import { accountLinkUrl } from "@/lib/auth/accounts/account-link-url";
import { createInvitation, createPasswordReset, type NewLink, withdrawInvitation } from "@/lib/auth/accounts/account-links";
import { mailInvitation, mailPasswordReset } from "@/lib/auth/accounts/account-mail";
import { renewInvitation } from "@/lib/auth/accounts/invitation-renewal";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { addressedOrigin } from "@/lib/auth/same-origin";
import { changeSecondFactorPolicy, SecondFactorPolicyNotMetError } from "@/lib/auth/second-factors/second-factor-policy";
import { clearSecondFactors } from "@/lib/auth/second-factors/second-factor-recovery";
import { changeRole, deactivateUser, reactivateUser } from "@/lib/auth/accounts/team";
import { changeSignInMethods, SingleSignOnNotConfiguredError } from "@/lib/auth/single-sign-on/sign-in-methods";
import { unlinkIdentity } from "@/lib/auth/single-sign-on/sso-identities";
import type { StaffUser } from "@/lib/auth/accounts/users";
import { FLASH_COOKIE } from "@/lib/client/flash-message";
import { fieldErrors, type FormRefusal } from "@/lib/validations/field-errors";
import { changeSecondFactorPolicySchema } from "@/lib/validations/second-factor-policy";
import { SECOND_FACTOR_POLICY_LABELS } from "@/lib/validations/second-factor-policy-options";
import { changeSignInMethodsSchema } from "@/lib/validations/sign-in-methods";
import { SIGN_IN_METHODS_LABELS } from "@/lib/validations/sign-in-methods-options";
import { newInvitationSchema, roleSchema } from "@/lib/validations/user";
import type { LinkPurpose } from "@/lib/validations/user-options";
import { sentence } from "@/lib/validations/sentence";

// The team page's actions (issue 21). Server actions are public endpoints:
// each one checks, itself, that an owner is signed in (staff who are not
// owners get a 404, as from the page). The data layer does not ask who calls.
// A refusal the owner can act on (the last owner, a deactivated account) is
// answered as a sentence to show; anything else is a fault, and thrown.
// A link's URL goes back to the owner's browser only: it is never logged.
// Each change is recorded as the owner's (actionAttribution), in its transaction.

const TEAM = "/team";

/** A one-time link as the page shows it, once: where it leads, and whether it was also emailed (null: no mail server). */
export type LinkShown = { purpose: LinkPurpose; email: string; url: string; mail: { sent: true } | { sent: false; reason: string } | null };

export type InviteResult = { created: LinkShown } | FormRefusal<"email" | "role">;

/** A change to an account: what it did, in a sentence, or why it was refused. */
export type TeamChangeResult = { done: string } | { error: string };

/** A new link for a person: shown once, or why none was made. */
export type TeamLinkResult = { link: LinkShown } | { error: string };

const invitationField = newInvitationSchema.keyof();

/** Invites someone from the form's raw values, parsed with the form's own schema; an email an account has is an error on the email. */
export async function inviteMember(values: unknown): Promise<InviteResult> {
  const owner = await requireOwner(TEAM);
  const parsed = newInvitationSchema.safeParse(values);
  if (!parsed.success) {
    return { errors: fieldErrors(parsed.error, invitationField) };
  }
  let made: NewLink;
  try {
    made = await createInvitation(parsed.data, await actionAttribution(owner));
  } catch (error) {
    if (error instanceof EmailTakenError) return { errors: [{ field: "email", message: error.message }] };
    throw error;
  }
  revalidatePath(TEAM);
  return { created: await sendInvitation(made, owner) };
}

export async function renewInvitationLink(invitationId: unknown): Promise<TeamLinkResult> {
  const owner = await requireOwner(TEAM);
  try {
    const made = await renewInvitation(text(invitationId), await actionAttribution(owner));
    revalidatePath(TEAM);
    if (!made) return { error: GONE_INVITATION };
    return { link: await sendInvitation(made, owner) };
  } catch (error) {
    return refusal(error);
  }
}

/** `email` only names the invitation in the sentence, for the owner who asked. */
export async function withdrawInvitationLink(invitationId: unknown, email: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  const withdrawn = await withdrawInvitation(text(invitationId), await actionAttribution(owner));
  revalidatePath(TEAM);
  if (!withdrawn) return { error: GONE_INVITATION };
  return { done: `Withdrew the invitation for ${text(email)}: its link no longer works.` };
}

/** Makes the account an owner or staff. An owner who makes themself staff may no longer be here, and goes to the plants. */
export async function changeMemberRole(userId: unknown, role: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  const parsed = roleSchema.safeParse(role);
  if (!parsed.success) return { error: sentence(parsed.error.issues[0]!.message) };
  let changed: StaffUser;
  try {
    changed = await changeRole(text(userId), parsed.data, await actionAttribution(owner));
  } catch (error) {
    return refusal(error);
  }
  revalidatePath(TEAM);
  if (changed.id === owner.id && changed.role !== "owner") await leaveOwnersPages("You are now staff: the team is managed by its owners.");
  return { done: changed.role === "owner" ? `${changed.name} is now an owner.` : `${changed.name} is now staff.` };
}

/** Deactivates the account. An owner who deactivates themself is signed out by it, and leaves. */
export async function deactivateMember(userId: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  let changed: StaffUser;
  try {
    changed = await deactivateUser(text(userId), await actionAttribution(owner));
  } catch (error) {
    return refusal(error);
  }
  revalidatePath(TEAM);
  if (changed.id === owner.id) redirect("/");
  return { done: `Deactivated ${changed.name}: they can no longer sign in, and their API tokens are refused.` };
}

export async function reactivateMember(userId: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  try {
    const changed = await reactivateUser(text(userId), await actionAttribution(owner));
    revalidatePath(TEAM);
    return { done: `Reactivated ${changed.name}: they can sign in again.` };
  } catch (error) {
    return refusal(error);
  }
}

/** A password reset link for an active account, emailed too when a mail server is configured. */
export async function makePasswordReset(userId: unknown): Promise<TeamLinkResult> {
  const owner = await requireOwner(TEAM);
  try {
    const { secret, link } = await createPasswordReset({ userId: text(userId) }, await actionAttribution(owner));
    const url = accountLinkUrl("password_reset", secret, await ownerPageOrigin());
    return { link: { purpose: "password_reset", email: link.email, url, mail: await mailPasswordReset(link, url) } };
  } catch (error) {
    return refusal(error);
  }
}

/** Sets who must have a second factor (issue 24); refused while the owner would not meet it themself. */
export async function saveSecondFactorPolicy(values: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  const parsed = changeSecondFactorPolicySchema.safeParse(values);
  if (!parsed.success) return { error: sentence(parsed.error.issues[0]!.message) };
  try {
    const { before, after } = await changeSecondFactorPolicy(parsed.data.policy, owner, await actionAttribution(owner));
    revalidatePath(TEAM);
    if (before === after) return { done: "The policy was already this one: nothing changed." };
    return { done: `Saved. Who must have a second factor: ${SECOND_FACTOR_POLICY_LABELS[after]}.` };
  } catch (error) {
    if (error instanceof SecondFactorPolicyNotMetError) return { error: sentence(error.message) };
    throw error;
  }
}

/**
 * Clears a person's second factors, for a lost phone or passkey: their
 * sessions end, and they sign in with their password alone (and set one up
 * again if the policy requires it). Owners clear their own on the Account
 * page, where they stay signed in.
 */
export async function clearMemberFactors(userId: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  const id = text(userId);
  if (id === owner.id) return { error: "Remove your own second factors on your Account page." };
  try {
    const { user, cleared } = await clearSecondFactors(id, await actionAttribution(owner));
    revalidatePath(TEAM);
    if (!cleared) return { done: `${user.name} has no second factor: nothing to clear.` };
    return { done: `Cleared the second factors of ${user.name}: their sessions have ended, and they sign in with their password alone.` };
  } catch (error) {
    return refusal(error);
  }
}

async function sendInvitation({ secret, link }: NewLink, owner: StaffUser): Promise<LinkShown> {
  const url = accountLinkUrl("invitation", secret, await ownerPageOrigin());
  return { purpose: "invitation", email: link.email, url, mail: await mailInvitation(link, url, owner.name) };
}

/** Where the owner reaches the app, for a link's address when NEXTAUTH_URL does not say it (lib/auth/accounts/account-link-url.ts). */
async function ownerPageOrigin(): Promise<string | undefined> {
  return addressedOrigin(await headers());
}

const GONE_INVITATION = "This invitation is no longer pending: it was accepted, withdrawn or replaced, or it expired.";

/** The refusals an owner can act on, as sentences; anything else is not theirs to fix. */
function refusal(error: unknown): { error: string } {
  if (error instanceof AccountNotFoundError) return { error: "This account no longer exists: reload the page to see the team as it is." };
  // It begins with an email, which keeps its case.
  if (error instanceof LastOwnerError) return { error: `${error.message}.` };
  if (error instanceof AccountDeactivatedError || error instanceof EmailTakenError) return { error: sentence(error.message) };
  throw error;
}

/** For the flash message the plants page shows once (lib/client/flash-message.ts). */
async function leaveOwnersPages(message: string): Promise<never> {
  (await cookies()).set(FLASH_COOKIE, message, { path: "/", maxAge: 60, sameSite: "strict" });
  redirect("/");
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Unlinks a member's single sign-on identity (issue 34); signing in with it again links it again by its verified email, unless the account is deactivated. */
export async function unlinkMemberIdentity(userId: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  const unlinked = await unlinkIdentity(text(userId), await actionAttribution(owner), { keepAWayIn: false });
  revalidatePath(TEAM);
  return unlinked ? { done: "Unlinked their company account." } : { error: "No company account is linked to that account." };
}

/** Sets how staff sign in (issue 34); "single sign-on only" is refused while no provider is configured. */
export async function saveSignInMethods(values: unknown): Promise<TeamChangeResult> {
  const owner = await requireOwner(TEAM);
  const parsed = changeSignInMethodsSchema.safeParse(values);
  if (!parsed.success) return { error: sentence(parsed.error.issues[0]!.message) };
  try {
    const { before, after } = await changeSignInMethods(parsed.data.methods, await actionAttribution(owner));
    revalidatePath(TEAM);
    if (before === after) return { done: "Staff already sign in this way: nothing changed." };
    return { done: `Saved. Staff sign in with: ${SIGN_IN_METHODS_LABELS[after]}.` };
  } catch (error) {
    if (error instanceof SingleSignOnNotConfiguredError) return { error: sentence(error.message) };
    throw error;
  }
}

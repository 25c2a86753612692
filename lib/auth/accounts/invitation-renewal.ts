import type { Attribution } from "@/lib/activity/actor";
import { createInvitation, type NewLink } from "@/lib/auth/accounts/account-links";
import { toRole } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";

// "New link" on the team page (issue 21): the person lost the invitation, or
// it went to the wrong inbox. The owner picks the pending invitation, not an
// email to type again: the new one is for the same email and role, and
// replaces the old one (createInvitation withdraws the one still pending).
//
// Two steps, not one transaction: if the old invitation is withdrawn or
// accepted between them, the new one is still made as the owner asked, or
// refused with EmailTakenError when an account now has the email. The new one
// is recorded as an invitation made (createInvitation), by the owner who asked.

/**
 * A new invitation in place of the pending one with this id, made by `by`;
 * null when none is pending by it (used, withdrawn, expired, or never made).
 */
export async function renewInvitation(id: string, by: Attribution, now = new Date()): Promise<NewLink | null> {
  const pending = await db().accountLink.findFirst({
    where: { id, purpose: "invitation", usedAt: null, withdrawnAt: null, expiresAt: { gt: now } },
    select: { email: true, role: true },
  });
  if (!pending) return null;
  return createInvitation({ email: pending.email, role: toRole(pending.role ?? "staff") }, by);
}

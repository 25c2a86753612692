import type { Attribution } from "@/lib/activity/actor";
import type { ActivityAction, ActivityRecord, Changes, FieldChanges } from "@/lib/activity/record";

// The activity records of accounts, invitations, passwords and sign-ins
// (issue 22), built in one place so that every writer names its subject the
// same way. What goes in `changes` is an account's shown fields (name, email,
// role, status) and never a password, its hash, nor a link's secret or hash:
// a password change is recorded as the fact alone.

/** A record about the account with this id. */
export function accountRecord(action: ActivityAction, userId: string, changes: Changes, by: Attribution): ActivityRecord {
  return { action, subjectKind: "account", subjectId: userId, changes, by };
}

/** A record about an invitation, by the link's id: no account exists until it is accepted. */
export function invitationRecord(action: ActivityAction, invitationId: string, changes: Changes, by: Attribution): ActivityRecord {
  return { action, subjectKind: "invitation", subjectId: invitationId, changes, by };
}

/**
 * A failed sign-in's subject when the typed email names no account: there is
 * no account to file it under, and the email typed is in its changes.
 */
export const NO_ACCOUNT = "";

/** The fields among `fields` whose values differ, before and after; null when none does. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: T, fields: readonly (keyof T & string)[]): Required<FieldChanges> | null {
  const changes: Required<FieldChanges> = { before: {}, after: {} };
  for (const field of fields) {
    if (before[field] === after[field]) continue;
    changes.before[field] = before[field];
    changes.after[field] = after[field];
  }
  return Object.keys(changes.after).length === 0 ? null : changes;
}

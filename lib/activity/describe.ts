import type { ActivityEntry } from "@/lib/activity/history";
import type { ActivityAction, SubjectKind } from "@/lib/activity/record";
import { stringifyExactJson } from "@/lib/json/exact-json";

// The activity record in words, for the pages that show it (a plant's
// history, the owners' Activity page) and for text made of it (a CSV): who
// made a change, what was done, and which fields went from what to what.
// Pure: the names of tokens' owners are looked up by the caller
// (lib/activity/people-names.ts). The components that show these
// (components/activity/actor-name.tsx, field-changes.tsx) take the same shapes.

/**
 * Who made a change: `lead`, then the person, if any, by name. The person
 * is the one who made it or the owner of the token that did, and their name
 * is what a page links to their activity.
 */
export type NamedActor = { lead: string; person: { userId: string; name: string } | null };

/** Shown for a token whose owner's account is not found (never expected: accounts are deactivated, not deleted). */
export const UNKNOWN_ACCOUNT = "an unknown account";

/**
 * Names who made a change: a person by the name they had then; an API token
 * by its label and the person it belongs to (`tokenOwners`: names by account
 * id, as they are now); "the app"; "the CLI" with the operator's OS user
 * when it was known.
 */
export function nameActor(actor: ActivityEntry["actor"], tokenOwners: ReadonlyMap<string, string>): NamedActor {
  switch (actor.kind) {
    case "person":
      return { lead: "", person: { userId: actor.userId ?? "", name: actor.name } };
    case "token": {
      const token = `API token “${actor.name}”`;
      if (actor.userId === null) return { lead: token, person: null };
      return { lead: `${token} of `, person: { userId: actor.userId, name: tokenOwners.get(actor.userId) ?? UNKNOWN_ACCOUNT } };
    }
    case "app":
      return { lead: "the app", person: null };
    case "cli":
      return { lead: actor.name === "" ? "the CLI" : `the CLI (OS user ${actor.name})`, person: null };
  }
}

/** A named actor as plain text ("API token “till sync” of Ana Lopez"). */
export function actorText({ lead, person }: NamedActor): string {
  return person ? `${lead}${person.name}` : lead;
}

// What was done, as a verb phrase whose subject is the actor ("Ana Lopez changed").
const ACTION_WORDS: Record<ActivityAction, string> = {
  "plant.created": "created",
  "plant.updated": "changed",
  "plant.deleted": "deleted",
  "plant.restored": "restored",
  "token.created": "created",
  "token.revoked": "revoked",
  "webhook.created": "created",
  "webhook.changed": "changed",
  "webhook.rotated": "rotated the secret",
  "webhook.enabled": "enabled",
  "webhook.disabled": "disabled",
  "webhook.deleted": "deleted",
  "account.invited": "invited",
  "account.invitation_withdrawn": "withdrew the invitation",
  "account.joined": "joined",
  "account.created": "created",
  "account.changed": "changed",
  "account.deactivated": "deactivated",
  "account.reactivated": "reactivated",
  "account.passkey_added": "added a passkey",
  "account.passkey_removed": "removed a passkey",
  "account.factors_cleared": "cleared the second factors of",
  "password.changed": "changed the password",
  "password.reset_requested": "made a password reset link",
  "password.reset": "reset the password",
  "sign_in.succeeded": "signed in",
  "sign_in.failed": "failed to sign in",
  "account.totp_enabled": "turned on an authenticator app",
  "account.totp_disabled": "turned off the authenticator app",
  "account.recovery_codes_renewed": "made new recovery codes",
  "settings.changed": "changed",
  "account.sso_linked": "linked a single sign-on identity to",
  "account.sso_unlinked": "unlinked the single sign-on identity of",
};

/** What was done, in words: "created", "changed", "deleted", "restored"… */
export function describeAction(action: ActivityAction): string {
  return ACTION_WORDS[action];
}

/** A field's value as shown: its text, and whether it is the absence of a value ("no tag"), which pages show apart. */
export type ShownValue = { text: string; none: boolean };

/** One field of a change: its value before and after; only after for a subject created, only before for one deleted. */
export type FieldChange = { field: string; label: string; before?: ShownValue; after?: ShownValue };

// The fields a whole subject has, in the order they are read: a created or
// deleted subject's record holds it whole, leaving out what it does not have
// (a plant's tag), which is shown as none rather than not at all.
const WHOLE_FIELDS: Partial<Record<SubjectKind, readonly string[]>> = { plant: ["id", "name", "tag"] };

const LABELS: Record<string, string> = { id: "Id", url: "URL" };

// How the absence of a value reads, where "none" would say less.
const NONE_WORDS: Record<string, string> = { tag: "no tag" };

/**
 * The fields a record's change names, each with its value before and after
 * (only those that changed, for a change; all of them for a subject created,
 * restored or deleted), in the subject's order of fields, then the rest.
 */
export function listChanges({ subjectKind, changes }: Pick<ActivityEntry, "subjectKind" | "changes">): FieldChange[] {
  const { before, after } = changes;
  const order = WHOLE_FIELDS[subjectKind] ?? [];
  const named = Object.keys({ ...before, ...after });
  const whole = before === undefined || after === undefined;
  const fields = [...order.filter((field) => whole || named.includes(field)), ...named.filter((field) => !order.includes(field))];
  return fields.map((field) => ({
    field,
    label: fieldLabel(field),
    ...(before !== undefined && { before: showValue(field, before[field]) }),
    ...(after !== undefined && { after: showValue(field, after[field]) }),
  }));
}

/** "Name" for name, "Sessions valid from" for sessionsValidFrom. */
function fieldLabel(field: string): string {
  const words = field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
  return LABELS[field] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

function showValue(field: string, value: unknown): ShownValue {
  if (value === null || value === undefined) return { text: NONE_WORDS[field] ?? "none", none: true };
  if (typeof value === "string") return value === "" ? { text: "empty", none: true } : { text: value, none: false };
  if (typeof value === "boolean") return { text: value ? "yes" : "no", none: false };
  if (typeof value === "number" || typeof value === "bigint") return { text: value.toString(), none: false };
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.length === 0 ? { text: "none", none: true } : { text: value.join(", "), none: false };
  // Exact JSON: ids above 2^53 inside a value keep every digit.
  return { text: stringifyExactJson(value), none: false };
}

/** A record in words: when, who, what was done, and the fields it names. */
export type DescribedEntry = { id: bigint; at: Date; who: NamedActor; what: string; changes: FieldChange[] };

export function describeEntry(entry: ActivityEntry, tokenOwners: ReadonlyMap<string, string>): DescribedEntry {
  return { id: entry.id, at: entry.occurredAt, who: nameActor(entry.actor, tokenOwners), what: describeAction(entry.action), changes: listChanges(entry) };
}

// What each family of actions is about, for a filter that takes them all ("plant.*").
const FAMILY_WORDS: Record<string, string> = {
  plant: "plants",
  token: "API tokens",
  webhook: "webhook endpoints",
  account: "accounts",
  password: "passwords",
  sign_in: "sign-ins",
  settings: "settings",
};

/** What a family of actions ("plant.*") is about, in words: "plants". */
export function describeFamily(family: `${string}.*`): string {
  const name = family.slice(0, -2);
  return FAMILY_WORDS[name] ?? name;
}

const SUBJECT_WORDS: Record<SubjectKind, string> = { plant: "plant", token: "API token", webhook: "webhook endpoint", account: "account", invitation: "invitation", setting: "setting" };

/**
 * What a record is about, in words: "plant 9007199254740993", "webhook
 * endpoint <id>", an account by its name now (`accountNames`, by id), or
 * "no account" for a failed sign-in whose email named none.
 */
export function describeSubject({ subjectKind, subjectId }: Pick<ActivityEntry, "subjectKind" | "subjectId">, accountNames: ReadonlyMap<string, string>): string {
  if (subjectKind === "account") return subjectId === "" ? "no account" : `account ${accountNames.get(subjectId) ?? subjectId}`;
  return `${SUBJECT_WORDS[subjectKind] ?? subjectKind} ${subjectId}`;
}

/**
 * A record's fields in one line, for text (a CSV, the CLI): "Name: Monstera →
 * Monstera deliciosa; Tag: aroid → no tag"; a deleted subject's "as it was:
 * Id: 7; Name: Fern; Tag: no tag"; a restored plant's, with the record it was
 * restored from.
 */
export function changesText(entry: Pick<ActivityEntry, "subjectKind" | "changes">): string {
  const { before, after, restoredFrom } = entry.changes;
  const fields = listChanges(entry)
    .map(({ label, before: old, after: now }) => (old && now ? `${label}: ${old.text} → ${now.text}` : `${label}: ${(now ?? old)?.text ?? ""}`))
    .join("; ");
  const kept = before !== undefined && after === undefined && fields !== "" ? `as it was: ${fields}` : fields;
  return restoredFrom === undefined ? kept : `${kept} (restored from record ${restoredFrom})`;
}

import type { ActivityEntry } from "@/lib/activity/history";
import type { Changes } from "@/lib/activity/record";
import { stringifyExactJson } from "@/lib/json/exact-json";

// An activity record in words, the same on the owners' page, in its CSV and
// at the CLI: what was done, by whom, to what, and what changed.

// Keyed by text rather than by ActivityAction: a kind added later is shown
// by its name until it has words here, rather than not at all.
const ACTION_WORDS: Readonly<Record<string, string>> = {
  "plant.created": "added a plant",
  "plant.updated": "changed a plant",
  "plant.deleted": "deleted a plant",
  "plant.restored": "restored a deleted plant",
  "token.created": "created an API token",
  "token.revoked": "revoked an API token",
  "webhook.created": "added a webhook endpoint",
  "webhook.changed": "changed a webhook endpoint",
  "webhook.rotated": "rotated a webhook endpoint's secret",
  "webhook.enabled": "enabled a webhook endpoint",
  "webhook.disabled": "disabled a webhook endpoint",
  "webhook.deleted": "deleted a webhook endpoint",
  "account.invited": "invited someone",
  "account.invitation_withdrawn": "withdrew an invitation",
  "account.joined": "joined the team",
  "account.created": "made an account",
  "account.changed": "changed an account",
  "account.deactivated": "deactivated an account",
  "account.reactivated": "reactivated an account",
  "password.changed": "changed a password",
  "password.reset_requested": "made a password reset link",
  "password.reset": "reset a password",
  "sign_in.succeeded": "signed in",
  "sign_in.failed": "failed to sign in",
};

const FAMILY_WORDS: Readonly<Record<string, string>> = {
  plant: "plants",
  token: "API tokens",
  webhook: "webhook endpoints",
  account: "accounts",
  password: "passwords",
  sign_in: "sign-ins",
};

/** What an action did, in words starting in lower case ("deleted a plant"); an action without words is shown by its name. */
export function actionWords(action: string): string {
  return ACTION_WORDS[action] ?? action;
}

/** A family of actions ("plant.*") in words: "any change to plants". */
export function familyWords(family: string): string {
  const name = family.slice(0, -2);
  return `any change to ${FAMILY_WORDS[name] ?? name}`;
}

/** The accounts a record may name, by id: who owns a token, who an account's record is about. */
export type People = ReadonlyMap<string, { name: string; email: string }>;

/** Who made a change, as the page shows it. */
export type Who =
  | { kind: "person"; name: string; userId: string | null }
  | { kind: "token"; label: string; person: { userId: string; name: string } | null }
  | { kind: "app" }
  | { kind: "cli"; osUser: string | null };

export function whoOf({ actor }: ActivityEntry, people: People): Who {
  switch (actor.kind) {
    case "person":
      // The name as it was when they made the change.
      return { kind: "person", name: actor.name, userId: actor.userId };
    case "token": {
      const person = actor.userId === null ? null : { userId: actor.userId, name: people.get(actor.userId)?.name ?? actor.userId };
      return { kind: "token", label: actor.name, person };
    }
    case "app":
      return { kind: "app" };
    case "cli":
      return { kind: "cli", osUser: actor.name === "" ? null : actor.name };
  }
}

export function whoWords(who: Who): string {
  switch (who.kind) {
    case "person":
      return who.name;
    case "token":
      return who.person ? `API token “${who.label}” of ${who.person.name}` : `API token “${who.label}” (made with the CLI)`;
    case "app":
      return "the app";
    case "cli":
      return who.osUser === null ? "the CLI" : `the CLI (${who.osUser})`;
  }
}

/** What a record is about, in words: "plant 7", "account Ana Lopez". */
export function subjectWords({ subjectKind, subjectId }: Pick<ActivityEntry, "subjectKind" | "subjectId">, people: People): string {
  switch (subjectKind) {
    case "plant":
      return `plant ${subjectId}`;
    case "account":
      return subjectId === "" ? "no account" : `account ${people.get(subjectId)?.name ?? subjectId}`;
    case "token":
      return `API token ${subjectId}`;
    case "webhook":
      return `webhook endpoint ${subjectId}`;
    default:
      return `${subjectKind} ${subjectId}`;
  }
}

/** One field a record names: its value before, after, or both (a change). */
export type ChangedField = { field: string; before?: string; after?: string };

/** A field's value in words: text as it is, none for null, exact integers, lists joined. */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(valueWords).join(", ");
  return stringifyExactJson(value);
}

/** The fields a record names, in the order it names them: for a change old and new, for a created or restored subject the new, for a deleted one the old. */
export function changedFields({ before = {}, after = {} }: Changes): ChangedField[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    ...(field in before && { before: valueWords(before[field]) }),
    ...(field in after && { after: valueWords(after[field]) }),
  }));
}

/** What changed, in one line: "name: Monstera → Monstera deliciosa; tag: aroid → none", or a deleted plant "was id: 7; name: Monstera". */
export function changesWords(changes: Changes): string {
  const fields = changedFields(changes);
  const kept = fields.length > 0 && fields.every((field) => field.after === undefined);
  const text = fields
    .map(({ field, before, after }) => (before !== undefined && after !== undefined ? `${field}: ${before} → ${after}` : `${field}: ${after ?? before}`))
    .join("; ");
  const restored = changes.restoredFrom === undefined ? "" : ` (restored from record ${changes.restoredFrom})`;
  return `${kept ? `was ${text}` : text}${restored}`;
}

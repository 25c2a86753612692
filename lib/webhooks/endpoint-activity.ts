import type { Attribution } from "@/lib/activity/actor";
import type { ActivityAction, ActivityRecord, Changes } from "@/lib/activity/record";
import type { WebhookEndpoint } from "@/lib/db/client";
import { isWebhookEventType } from "@/lib/validations/webhook-options";

// The activity records of webhook endpoints (issue 22): what an owner set and
// what the app decided (URL, description, events, whether it is enabled and
// why not), never a secret, sealed or not, nor anything derived from one.
// Owners read the records, and they are kept for months after a secret is
// rotated out.

type EndpointAction = Extract<ActivityAction, `webhook.${string}`>;

/** Whether an endpoint is enabled, and why not: what enabling and disabling change. */
export type EnabledState = Pick<WebhookEndpoint, "enabled" | "disabledReason">;

export function endpointRecord(action: EndpointAction, endpointId: string, changes: Changes, by: Attribution): ActivityRecord {
  return { action, subjectKind: "webhook", subjectId: endpointId, changes, by };
}

/** A new endpoint as its record shows it. */
export function createdFields(row: WebhookEndpoint): Record<string, unknown> {
  return { url: row.url, description: row.description, events: events(row), enabled: row.enabled };
}

/** A deleted endpoint as it was: all of it but its id (the record's subject) and its secrets. */
export function deletedFields(row: WebhookEndpoint): Record<string, unknown> {
  return { ...createdFields(row), disabledReason: row.disabledReason, createdAt: row.createdAt.toISOString() };
}

/** What an owner sets on an endpoint, as stored (events space-separated). */
export type EditedFields = Pick<WebhookEndpoint, "url" | "description" | "events">;

/** Of the URL, description and events, those that differ, before and after (events as lists); empty when nothing changes. */
export function editedChanges(before: EditedFields, after: EditedFields): Changes {
  const changes = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const field of ["url", "description"] as const) {
    if (before[field] !== after[field]) {
      changes.before[field] = before[field];
      changes.after[field] = after[field];
    }
  }
  const [eventsBefore, eventsAfter] = [events(before), events(after)];
  if ([...eventsBefore].sort().join(" ") !== [...eventsAfter].sort().join(" ")) {
    changes.before.events = eventsBefore;
    changes.after.events = eventsAfter;
  }
  return Object.keys(changes.after).length === 0 ? {} : changes;
}

/** Of enabled and the disabled reason, those that differ, before and after; empty when nothing changes. */
export function enabledChanges(before: EnabledState, after: EnabledState): Changes {
  const changes = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  if (before.enabled !== after.enabled) {
    changes.before.enabled = before.enabled;
    changes.after.enabled = after.enabled;
  }
  if (before.disabledReason !== after.disabledReason) {
    changes.before.disabledReason = before.disabledReason;
    changes.after.disabledReason = after.disabledReason;
  }
  return Object.keys(changes.after).length === 0 ? {} : changes;
}

function events(row: Pick<WebhookEndpoint, "events">): string[] {
  return row.events.split(" ").filter(isWebhookEventType);
}

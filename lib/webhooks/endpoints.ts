import { randomUUID } from "node:crypto";
import type { Attribution } from "@/lib/activity/actor";
import { type ActivityRecord, recordActivity } from "@/lib/activity/record";
import { db, Prisma, type WebhookEndpoint } from "@/lib/db/client";
import { env } from "@/lib/server/env";
import { isWebhookEventType, type NewWebhookEndpoint, type WebhookEventType } from "@/lib/validations/webhook";
import { createdFields, deletedFields, editedChanges, enabledChanges, endpointRecord } from "@/lib/webhooks/endpoint-activity";
import { generateEndpointSecret, openEndpointSecret, sealEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { checkWebhookTarget } from "@/lib/webhooks/target-address";

// Webhook endpoints: where events go, which ones, and the secrets that sign
// them. Secrets leave this module only when made (shown once) and to the
// delivery worker, which signs with them. Every change is attributed (`by`)
// and writes its activity record (lib/webhooks/endpoint-activity.ts) in its
// own transaction; a change that changes nothing writes none.

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type WebhookEndpointInfo = {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  /** Until when the previous secret still signs, during a rotation. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
};

export function toEndpointInfo(row: WebhookEndpoint, now = Date.now()): WebhookEndpointInfo {
  const rotating = row.previousSecret !== null && row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt.getTime() > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.split(" ").filter(isWebhookEventType),
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    failingSince: row.failingSince,
    previousSecretExpiresAt: rotating ? row.previousSecretExpiresAt : null,
    createdAt: row.createdAt,
  };
}

/** Saves an endpoint once its URL passes the target rules (lib/webhooks/target-address.ts); answers its secret, to show once. */
export async function createWebhookEndpoint(input: NewWebhookEndpoint, by: Attribution): Promise<{ endpoint: WebhookEndpointInfo; secret: string }> {
  await checkWebhookTarget(input.url, { allowPrivate: env().webhooks.allowPrivateTargets });
  const secret = generateEndpointSecret();
  const now = new Date();
  const row = await db().$transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: {
        id: randomUUID(),
        url: input.url,
        description: input.description,
        events: [...new Set(input.events)].join(" "),
        secret: sealEndpointSecret(secret),
        createdAt: now,
      },
    });
    await recordActivity(tx, [endpointRecord("webhook.created", created.id, { after: createdFields(created) }, by)], now);
    return created;
  });
  return { endpoint: toEndpointInfo(row), secret };
}

export async function listWebhookEndpoints(): Promise<WebhookEndpointInfo[]> {
  const rows = await db().webhookEndpoint.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map((row) => toEndpointInfo(row));
}

export async function findWebhookEndpoint(id: string): Promise<WebhookEndpointInfo | null> {
  const row = await db().webhookEndpoint.findUnique({ where: { id } });
  return row && toEndpointInfo(row);
}

/**
 * Changes what an owner set on an endpoint: its URL (which must pass the
 * target rules, as a new one's), its description and its events; false when
 * there is no such endpoint. Only the events that happen afterwards follow the
 * new events; deliveries already queued, and their retries, go to the URL the
 * endpoint has when each is sent. A new URL starts with a clean slate of
 * failures (the old receiver's are not the new one's); whether the endpoint
 * is enabled is left as it is. Nothing changed writes nothing.
 */
export async function editWebhookEndpoint(id: string, input: NewWebhookEndpoint, by: Attribution): Promise<boolean> {
  const edited = { url: input.url, description: input.description, events: [...new Set(input.events)].join(" ") };
  const now = new Date();
  const done = await changeAsRead(id, async (row) => {
    const changes = editedChanges(row, edited);
    if (!changes.after) return true;
    if (edited.url !== row.url) await checkWebhookTarget(edited.url, { allowPrivate: env().webhooks.allowPrivateTargets });
    const failures = edited.url === row.url ? {} : { failingSince: null };
    return commitIfAsRead(
      // Only if no other edit came in between: the record's "before" is what this one replaced.
      (tx) => tx.webhookEndpoint.updateMany({ where: { id, url: row.url, description: row.description, events: row.events }, data: { ...edited, ...failures } }),
      endpointRecord("webhook.changed", id, changes, by),
      now,
    );
  });
  return done !== null;
}

/**
 * Stops deliveries to an endpoint, saying why (an owner, the CLI); false when
 * there is no such endpoint. A disabled endpoint takes the new reason (so an
 * owner who disables one the app disabled takes it off the app's notice),
 * unless it is the reason it has: then nothing changes.
 */
export async function disableWebhookEndpoint(id: string, reason: string, by: Attribution): Promise<boolean> {
  const now = new Date();
  const done = await changeAsRead(id, async (row) => {
    const changes = enabledChanges(row, { enabled: false, disabledReason: reason });
    if (!changes.after) return true;
    return commitIfAsRead(
      (tx) => tx.webhookEndpoint.updateMany({ where: asRead(row), data: { enabled: false, disabledReason: reason, disabledAt: now } }),
      endpointRecord("webhook.disabled", id, changes, by),
      now,
    );
  });
  return done !== null;
}

/** Delivers to a disabled endpoint again, from a clean slate of failures; an enabled one is left as it is. False when there is no such endpoint. */
export async function enableWebhookEndpoint(id: string, by: Attribution): Promise<boolean> {
  const now = new Date();
  const done = await changeAsRead(id, async (row) => {
    if (row.enabled) return true;
    return commitIfAsRead(
      (tx) => tx.webhookEndpoint.updateMany({ where: asRead(row), data: { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } }),
      endpointRecord("webhook.enabled", id, enabledChanges(row, { enabled: true, disabledReason: null }), by),
      now,
    );
  });
  return done !== null;
}

/**
 * A new secret for the endpoint, answered once; the one before keeps signing
 * beside it for ROTATION_OVERLAP_MS (Standard Webhooks: several signatures,
 * space-separated). Null when there is no such endpoint. Its record says
 * until when the secret before is accepted, and nothing of either secret.
 */
export async function rotateWebhookEndpointSecret(id: string, by: Attribution): Promise<string | null> {
  const now = new Date();
  const secret = generateEndpointSecret();
  const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  return changeAsRead(id, async (row) => {
    const before = toEndpointInfo(row, now.getTime()).previousSecretExpiresAt;
    const changes = { before: { previousSecretExpiresAt: before?.toISOString() ?? null }, after: { previousSecretExpiresAt: previousSecretExpiresAt.toISOString() } };
    const rotated = await commitIfAsRead(
      // Only if no other rotation slipped in between: the secret read is the one moved aside.
      (tx) => tx.webhookEndpoint.updateMany({ where: { id, secret: row.secret }, data: { secret: sealEndpointSecret(secret), previousSecret: row.secret, previousSecretExpiresAt } }),
      endpointRecord("webhook.rotated", id, changes, by),
      now,
    );
    return rotated === LOST_RACE ? LOST_RACE : secret;
  });
}

/** Deletes an endpoint and its deliveries; false when there is no such endpoint. Its record keeps the endpoint as it was, but its secrets. */
export async function deleteWebhookEndpoint(id: string, by: Attribution): Promise<boolean> {
  const now = new Date();
  const done = await changeAsRead(id, (row) =>
    commitIfAsRead((tx) => tx.webhookEndpoint.deleteMany({ where: asRead(row) }), endpointRecord("webhook.deleted", id, { before: deletedFields(row) }, by), now),
  );
  return done !== null;
}

// What a change answers when the endpoint changed between its read and its write.
const LOST_RACE = Symbol("lost race");

/**
 * Reads the endpoint, then lets `change` write it on condition that it is
 * still as read; when another change was committed in between, the condition
 * matches no row and all is done again on the endpoint as it is now, so that
 * a record's "before" is what the change replaced. Null when there is no such
 * endpoint. The read is outside the write's transaction: a SQLite transaction
 * that reads before it writes fails outright (SQLITE_BUSY_SNAPSHOT) when
 * another process (a CLI) writes in between, where a bare write waits.
 */
async function changeAsRead<T>(id: string, change: (row: WebhookEndpoint) => Promise<T | typeof LOST_RACE>): Promise<T | null> {
  for (;;) {
    const row = await db().webhookEndpoint.findUnique({ where: { id } });
    if (!row) return null;
    const outcome = await change(row);
    if (outcome !== LOST_RACE) return outcome;
  }
}

/** The endpoint with what enabling and disabling change (the rest of it never changes, bar its secrets and failures) as read. */
function asRead(row: WebhookEndpoint): Prisma.WebhookEndpointWhereInput {
  return { id: row.id, enabled: row.enabled, disabledReason: row.disabledReason };
}

/** In one transaction: a conditional write, and its record if it wrote; LOST_RACE, with nothing written, if its condition matched no row. */
async function commitIfAsRead(write: (tx: Prisma.TransactionClient) => Promise<{ count: number }>, record: ActivityRecord, now: Date): Promise<true | typeof LOST_RACE> {
  return db().$transaction(async (tx) => {
    const { count } = await write(tx);
    if (count === 0) return LOST_RACE;
    await recordActivity(tx, [record], now);
    return true;
  });
}

/** The secrets that sign a delivery now: the current one, and during a rotation the one before. */
export function signingSecrets(row: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">, now = Date.now()): string[] {
  const secrets = [openEndpointSecret(row.secret)];
  if (row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now) secrets.push(openEndpointSecret(row.previousSecret));
  return secrets;
}

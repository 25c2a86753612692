import { randomUUID } from "node:crypto";
import { db, type WebhookEndpoint } from "@/lib/db/client";
import { env } from "@/lib/server/env";
import { isWebhookEventType, type NewWebhookEndpoint, type WebhookEventType } from "@/lib/validations/webhook";
import { generateEndpointSecret, openEndpointSecret, sealEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { checkWebhookTarget } from "@/lib/webhooks/target-address";

// Webhook endpoints: where events go, which ones, and the secrets that sign
// them. Secrets leave this module only when made (shown once) and to the
// delivery worker, which signs with them.

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
export async function createWebhookEndpoint(input: NewWebhookEndpoint): Promise<{ endpoint: WebhookEndpointInfo; secret: string }> {
  await checkWebhookTarget(input.url, { allowPrivate: env().webhooks.allowPrivateTargets });
  const secret = generateEndpointSecret();
  const row = await db().webhookEndpoint.create({
    data: {
      id: randomUUID(),
      url: input.url,
      description: input.description,
      events: [...new Set(input.events)].join(" "),
      secret: sealEndpointSecret(secret),
      createdAt: new Date(),
    },
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

/** Stops deliveries to an endpoint, saying why (an owner, a 410 Gone, days of failures); false when there is no such endpoint. */
export async function disableWebhookEndpoint(id: string, reason: string): Promise<boolean> {
  const { count } = await db().webhookEndpoint.updateMany({ where: { id }, data: { enabled: false, disabledReason: reason, disabledAt: new Date() } });
  return count > 0;
}

/** Delivers to an endpoint again, from a clean slate of failures; false when there is no such endpoint. */
export async function enableWebhookEndpoint(id: string): Promise<boolean> {
  const { count } = await db().webhookEndpoint.updateMany({
    where: { id },
    data: { enabled: true, disabledReason: null, disabledAt: null, failingSince: null },
  });
  return count > 0;
}

/**
 * A new secret for the endpoint, answered once; the one before keeps signing
 * beside it for ROTATION_OVERLAP_MS (Standard Webhooks: several signatures,
 * space-separated). Null when there is no such endpoint.
 */
export async function rotateWebhookEndpointSecret(id: string): Promise<string | null> {
  const row = await db().webhookEndpoint.findUnique({ where: { id }, select: { secret: true } });
  if (!row) return null;
  const secret = generateEndpointSecret();
  const { count } = await db().webhookEndpoint.updateMany({
    // Only if no other rotation slipped in between: the secret read is the one moved aside.
    where: { id, secret: row.secret },
    data: { secret: sealEndpointSecret(secret), previousSecret: row.secret, previousSecretExpiresAt: new Date(Date.now() + ROTATION_OVERLAP_MS) },
  });
  return count > 0 ? secret : rotateWebhookEndpointSecret(id);
}

/** Deletes an endpoint and its deliveries; false when there is no such endpoint. */
export async function deleteWebhookEndpoint(id: string): Promise<boolean> {
  const { count } = await db().webhookEndpoint.deleteMany({ where: { id } });
  return count > 0;
}

/** The secrets that sign a delivery now: the current one, and during a rotation the one before. */
export function signingSecrets(row: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">, now = Date.now()): string[] {
  const secrets = [openEndpointSecret(row.secret)];
  if (row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now) secrets.push(openEndpointSecret(row.previousSecret));
  return secrets;
}

import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { WEBHOOK_TEST_EVENT } from "@/lib/validations/webhook";
import { wakeWebhookWorker } from "@/lib/webhooks/worker-signal";

// Deliveries as owners see and steer them: an endpoint's recent ones, a
// resend, and a test event. Plant events and their deliveries are written by
// the database itself (the outbox triggers in the migrations); the worker
// (lib/webhooks/delivery-worker.ts) sends them.

export type DeliveryStatus = "pending" | "delivered" | "failed";

export type DeliveryInfo = {
  id: string;
  /** The event's id, the webhook-id header every attempt carries. */
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

export const RECENT_DELIVERIES = 50;

export function newEventId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

export function newDeliveryId(): string {
  return `whd_${randomUUID().replaceAll("-", "")}`;
}

/** An endpoint's most recent deliveries, newest first. */
export async function listDeliveries(endpointId: string, limit = RECENT_DELIVERIES): Promise<DeliveryInfo[]> {
  const rows = await db().webhookDelivery.findMany({
    where: { endpointId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { event: { select: { type: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    eventId: row.eventId,
    eventType: row.event.type,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    lastAttemptAt: row.lastAttemptAt,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    deliveredAt: row.deliveredAt,
    createdAt: row.createdAt,
  }));
}

/**
 * Sends a delivery's event to its endpoint again, as a new delivery with the
 * same webhook-id (a receiver that has it already knows it by that id).
 * Answers the new delivery's id; null when there is no such delivery for that endpoint.
 */
export async function resendDelivery(endpointId: string, deliveryId: string): Promise<string | null> {
  const delivery = await db().webhookDelivery.findFirst({ where: { id: deliveryId, endpointId }, select: { eventId: true } });
  if (!delivery) return null;
  const now = new Date();
  const id = newDeliveryId();
  await db().webhookDelivery.create({ data: { id, eventId: delivery.eventId, endpointId, nextAttemptAt: now, createdAt: now } });
  wakeWebhookWorker();
  return id;
}

/** Sends a webhook.test event to one endpoint, whatever it subscribes to; answers the event's id, or null when there is no such endpoint. */
export async function sendTestEvent(endpointId: string): Promise<string | null> {
  const endpoint = await db().webhookEndpoint.findUnique({ where: { id: endpointId }, select: { id: true } });
  if (!endpoint) return null;
  const now = new Date();
  const eventId = newEventId();
  const data = JSON.stringify({ endpointId, message: "A test event from Plant Store: this endpoint is reached and can verify our signature." });
  await db().$transaction([
    db().webhookEvent.create({ data: { id: eventId, type: WEBHOOK_TEST_EVENT, data, createdAt: now } }),
    db().webhookDelivery.create({ data: { id: newDeliveryId(), eventId, endpointId, nextAttemptAt: now, createdAt: now } }),
  ]);
  wakeWebhookWorker();
  return eventId;
}

"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { z } from "zod";
import { actionAttribution } from "@/lib/activity/action-attribution";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { fieldErrors, type FormRefusal } from "@/lib/validations/field-errors";
import { newWebhookEndpointSchema, webhookEndpointFieldSchema } from "@/lib/validations/webhook";
import { resendDelivery as queueResend, sendTestEvent as queueTestEvent } from "@/lib/webhooks/deliveries";
import { disabledByOwnerReason } from "@/lib/webhooks/disabled-reason";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  editWebhookEndpoint,
  enableWebhookEndpoint,
  findWebhookEndpoint,
  rotateWebhookEndpointSecret,
} from "@/lib/webhooks/endpoints";
import { WebhookTargetError } from "@/lib/webhooks/target-address";

// Server actions are public endpoints: each one checks, itself, that an owner
// is signed in (staff who are not owners get a 404, as from the pages).
// Whether an endpoint is enabled shows in every staff page's notice (the
// layout), so changing it revalidates the layout, not just this page.

/** What the endpoint form shows beside its fields: each message on its field, or on the form (null). */
export type EndpointFormErrors = FormRefusal<z.infer<typeof webhookEndpointFieldSchema>>;

export type CreateEndpointResult =
  /** The new endpoint and its secret, shown once: it cannot be shown again. */
  { created: { id: string; url: string; secret: string } } | EndpointFormErrors;

/** Adds an endpoint from the form's raw values, parsed with the form's own schema; a URL the target rules refuse is an error on the URL. */
export async function createEndpoint(values: unknown): Promise<CreateEndpointResult> {
  const owner = await requireOwner("/webhooks");
  const parsed = newWebhookEndpointSchema.safeParse(values);
  if (!parsed.success) {
    return {
      errors: fieldErrors(parsed.error, webhookEndpointFieldSchema),
    };
  }
  try {
    const { endpoint, secret } = await createWebhookEndpoint(parsed.data, await actionAttribution(owner));
    revalidatePath("/webhooks");
    return { created: { id: endpoint.id, url: endpoint.url, secret } };
  } catch (error) {
    if (error instanceof WebhookTargetError) return { errors: [{ field: "url", message: error.message }] };
    throw error;
  }
}

export type EditEndpointResult = { saved: true } | EndpointFormErrors;

/** Changes an endpoint's URL, description and events from the form's raw values, parsed with the same schema as a new endpoint's. */
export async function editEndpoint(id: unknown, values: unknown): Promise<EditEndpointResult> {
  if (typeof id !== "string") return { errors: [{ field: null, message: "This endpoint no longer exists." }] };
  const owner = await requireOwner(endpointPath(id));
  const parsed = newWebhookEndpointSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error, webhookEndpointFieldSchema) };
  try {
    if (!(await editWebhookEndpoint(id, parsed.data, await actionAttribution(owner)))) return { errors: [{ field: null, message: "This endpoint no longer exists." }] };
  } catch (error) {
    if (error instanceof WebhookTargetError) return { errors: [{ field: "url", message: error.message }] };
    throw error;
  }
  revalidatePath(endpointPath(id));
  revalidatePath("/webhooks");
  return { saved: true };
}

export async function disableEndpoint(form: FormData): Promise<void> {
  const id = endpointId(form);
  const owner = await requireOwner(endpointPath(id));
  await disableWebhookEndpoint(id, disabledByOwnerReason(owner.email), await actionAttribution(owner));
  revalidatePath("/", "layout");
}

export async function enableEndpoint(form: FormData): Promise<void> {
  const id = endpointId(form);
  const owner = await requireOwner(endpointPath(id));
  await enableWebhookEndpoint(id, await actionAttribution(owner));
  revalidatePath("/", "layout");
}

export async function deleteEndpoint(form: FormData): Promise<void> {
  const id = endpointId(form);
  const owner = await requireOwner(endpointPath(id));
  await deleteWebhookEndpoint(id, await actionAttribution(owner));
  revalidatePath("/", "layout");
  redirect("/webhooks");
}

export type RotateSecretResult =
  /** The new secret, shown once; the previous one signs beside it until previousSecretExpiresAt (ISO 8601). */
  | { rotated: { secret: string; previousSecretExpiresAt: string | null } }
  | { error: string };

export async function rotateSecret(id: unknown): Promise<RotateSecretResult> {
  if (typeof id !== "string") return { error: "no such endpoint" };
  const owner = await requireOwner(endpointPath(id));
  const secret = await rotateWebhookEndpointSecret(id, await actionAttribution(owner));
  if (secret === null) return { error: "This endpoint no longer exists." };
  const endpoint = await findWebhookEndpoint(id);
  revalidatePath(endpointPath(id));
  return { rotated: { secret, previousSecretExpiresAt: endpoint?.previousSecretExpiresAt?.toISOString() ?? null } };
}

export type SendTestEventResult = { sent: { eventId: string } } | { error: string };

export async function sendTestEvent(id: unknown): Promise<SendTestEventResult> {
  if (typeof id !== "string") return { error: "no such endpoint" };
  await requireOwner(endpointPath(id));
  const eventId = await queueTestEvent(id);
  if (eventId === null) return { error: "This endpoint no longer exists." };
  revalidatePath(endpointPath(id));
  return { sent: { eventId } };
}

export async function resendDelivery(form: FormData): Promise<void> {
  const id = endpointId(form);
  await requireOwner(endpointPath(id));
  const deliveryId = form.get("deliveryId");
  // A delivery of another endpoint, or none, looks like nothing at all: nothing happens.
  if (typeof deliveryId === "string") await queueResend(id, deliveryId);
  revalidatePath(endpointPath(id));
}

function endpointId(form: FormData): string {
  const id = form.get("endpointId");
  return typeof id === "string" ? id : "";
}

/** Where a signed-out owner returns after signing in. */
function endpointPath(id: string): string {
  return `/webhooks/${encodeURIComponent(id)}`;
}

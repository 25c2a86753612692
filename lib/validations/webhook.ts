import { z } from "zod";
import { plantSchema } from "@/lib/validations/plant";
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, WEBHOOK_URL_MAX, type WebhookEventType } from "@/lib/validations/webhook-options";

// Webhooks: the events a receiver may ask for, the form (and CLI) for a new
// endpoint, and the shape of what is delivered (Standard Webhooks 1.0). Imports
// only zod and the plant schema, so the staff form and the OpenAPI document
// share these rules. The events and the fields' limits are in
// lib/validations/webhook-options.ts, so that the form shows them without
// loading zod (issue 20).

export {
  isWebhookEventType,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
} from "@/lib/validations/webhook-options";

const urlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "url is required" : "url must be a string") })
  .trim()
  .min(1, "url is required")
  .max(WEBHOOK_URL_MAX, `url must be at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => URL.canParse(value), "url must be an absolute URL such as https://example.com/webhooks")
  .refine((value) => !URL.canParse(value) || ["https:", "http:"].includes(new URL(value).protocol), "url must be an https:// URL");

export const newWebhookEndpointSchema = z.object({
  url: urlSchema,
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, `events are ${WEBHOOK_EVENT_TYPES.slice(0, -1).join(", ")} and ${WEBHOOK_EVENT_TYPES.at(-1)}`))
    .min(1, "choose at least one event"),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX, `description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`).default(""),
});

export type NewWebhookEndpoint = z.output<typeof newWebhookEndpointSchema>;
/** What the endpoint form's fields hold, before parsing. */
export type NewWebhookEndpointValues = z.input<typeof newWebhookEndpointSchema>;
export const webhookEndpointFieldSchema = newWebhookEndpointSchema.keyof();

const timestampSchema = z.iso.datetime({ offset: true }).describe("When the event happened (RFC 3339)");

/** A plant event as delivered: the body every receiver verifies and reads. */
export function plantEventSchema(type: WebhookEventType) {
  return z
    .object({
      type: z.literal(type),
      timestamp: timestampSchema,
      data: plantSchema,
    })
    .describe(WEBHOOK_EVENTS[type]);
}

export const webhookTestEventSchema = z
  .object({
    type: z.literal(WEBHOOK_TEST_EVENT),
    timestamp: timestampSchema,
    data: z.object({ endpointId: z.string(), message: z.string() }),
  })
  .describe("Sent when an owner asks for a test delivery; only to that endpoint");

// What a webhook endpoint may subscribe to, and its fields' limits, apart
// from the schemas that enforce them (lib/validations/webhook.ts) so that the
// staff form shows them without loading zod with the page (issue 20).

/** The events an endpoint may subscribe to, with what each means. */
export const WEBHOOK_EVENTS = {
  "plant.created": "A plant was stored (an identical repeat of a create stores nothing and sends nothing)",
  "plant.updated": "A plant's name or tag changed; the data is the plant as it is now",
  "plant.deleted": "A plant was deleted; the data is the plant as it was",
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return value in WEBHOOK_EVENTS;
}

/** The event an owner sends on demand to try an endpoint; only ever sent to that endpoint. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_URL_MAX = 2_000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

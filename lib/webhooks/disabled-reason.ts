import { db } from "@/lib/db/client";
import { toEndpointInfo, type WebhookEndpointInfo } from "@/lib/webhooks/endpoints";

// Who disabled an endpoint, told apart by the reason recorded with it. A
// person's reason is written only by the two functions below (the staff app,
// the CLI); any other reason is the app's own (a 410 Gone, days of failures),
// and owners are told of those on every staff page until they act (issue 9).
// The delivery worker's reasons must therefore never look like these.

const BY_PERSON = /^disabled by (\S+@\S+|an operator with the CLI)$/;

/** The reason recorded when an owner disables an endpoint in the staff app. */
export function disabledByOwnerReason(email: string): string {
  return `disabled by ${email}`;
}

/** The reason recorded when an operator disables an endpoint with `npm run webhook -- disable`. */
export const DISABLED_WITH_CLI_REASON = "disabled by an operator with the CLI";

/** Whether the app disabled the endpoint by itself, rather than a person. */
export function isDisabledByApp(endpoint: Pick<WebhookEndpointInfo, "enabled" | "disabledReason">): boolean {
  return !endpoint.enabled && !BY_PERSON.test(endpoint.disabledReason ?? "");
}

/** The endpoints the app disabled by itself, most recently disabled first. */
export async function listEndpointsDisabledByApp(): Promise<WebhookEndpointInfo[]> {
  const rows = await db().webhookEndpoint.findMany({ where: { enabled: false }, orderBy: [{ disabledAt: "desc" }, { createdAt: "asc" }] });
  return rows.map((row) => toEndpointInfo(row)).filter(isDisabledByApp);
}

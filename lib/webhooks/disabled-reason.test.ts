import { expect, it, vi } from "vitest";
import { DISABLED_WITH_CLI_REASON, disabledByOwnerReason, isDisabledByApp, listEndpointsDisabledByApp } from "@/lib/webhooks/disabled-reason";
import { createWebhookEndpoint, disableWebhookEndpoint, enableWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Owners are told of endpoints the app disabled by itself, and not of those a
// person disabled: the two are told apart by the reason recorded.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
setUpTestDatabase();

it.each([
  [true, null, false],
  [false, disabledByOwnerReason("olive@plants.example"), false],
  [false, DISABLED_WITH_CLI_REASON, false],
  [false, "the receiver answered 410 Gone", true],
  [false, "failing for 5 days", true],
  [false, "disabled by the app: failing for 5 days", true],
  [false, null, true],
])("enabled %s, reason %j: disabled by the app is %s", (enabled, disabledReason, expected) => {
  expect(isDisabledByApp({ enabled, disabledReason })).toBe(expected);
});

it("lists the endpoints the app disabled, most recent first, and no others", async () => {
  const endpoint = async (path: string) => (await createWebhookEndpoint({ url: `http://127.0.0.1:9/${path}`, events: ["plant.created"], description: "" }, TEST_BY)).endpoint.id;
  await endpoint("still-enabled");
  const [byOwner, byCli, gone, failing] = [await endpoint("owner"), await endpoint("cli"), await endpoint("gone"), await endpoint("failing")];
  await disableWebhookEndpoint(byOwner, disabledByOwnerReason("olive@plants.example"), TEST_BY);
  await disableWebhookEndpoint(byCli, DISABLED_WITH_CLI_REASON, TEST_BY);
  await disableWebhookEndpoint(gone, "the receiver answered 410 Gone", TEST_BY);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await disableWebhookEndpoint(failing, "failing for 5 days", TEST_BY);
  expect((await listEndpointsDisabledByApp()).map((each) => each.id)).toEqual([failing, gone]);
  await enableWebhookEndpoint(gone, TEST_BY);
  expect((await listEndpointsDisabledByApp()).map((each) => each.id)).toEqual([failing]);
});

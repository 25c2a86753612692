import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, OWNER, SIGNED_OUT, test } from "./fixtures";

// Webhooks in the staff app (issue 9): owners add endpoints, see each secret
// once, steer them and their deliveries, and are told when the app disabled
// one by itself. The app under test allows private targets
// (playwright.config.ts), so endpoints point at 127.0.0.1; nothing needs to
// answer there for these pages.

// Every event the form offers.
const WEBHOOK_EVENT_TYPES = ["plant.created", "plant.updated", "plant.deleted"];

/** Adds an endpoint through the form; answers its id and the secret shown once. */
async function addEndpoint(page: Page, url: string, { events = ["plant.created", "plant.deleted"], description = "" }: { events?: string[]; description?: string } = {}) {
  if (!page.url().endsWith("/webhooks")) await page.goto("/webhooks");
  await page.getByLabel("URL").fill(url);
  await page.getByLabel("Description (optional)").fill(description);
  for (const event of WEBHOOK_EVENT_TYPES) {
    await page.getByRole("checkbox", { name: event }).setChecked(events.includes(event));
  }
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = page.getByLabel("Signing secret");
  await expect(secret).toBeVisible();
  const href = await page.getByRole("link", { name: "Open this endpoint" }).getAttribute("href");
  return { id: href!.replace("/webhooks/", ""), secret: await secret.inputValue() };
}

function navLink(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name });
}

function endpointCard(page: Page, url: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("link", { name: url, exact: true }) });
}


test("an owner adds an endpoint, sees its secret once, and finds it listed", async ({ page, context }) => {
  const url = "http://127.0.0.1:9/e2e/added";
  await page.goto("/");
  await navLink(page, "Webhooks").click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(navLink(page, "Webhooks")).toHaveAttribute("aria-current", "page");

  const { id, secret } = await addEndpoint(page, url, { events: ["plant.created"], description: "the till" });
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  // After the save, focus is on the new secret, selected, ready to copy (issue 11).
  await expect(page.getByLabel("Signing secret")).toBeFocused();
  expect(await page.getByLabel("Signing secret").evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0))).toBe(secret);
  await expect(page.getByRole("status").filter({ hasText: "it will not be shown again" })).toContainText(url);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  // The form is ready for the next one.
  await expect(page.getByLabel("URL")).toHaveValue("");

  const card = endpointCard(page, url);
  await expect(card).toContainText("plant.created");
  await expect(card).not.toContainText("plant.deleted");
  await expect(card).toContainText("Enabled");
  await expect(card).toContainText("not failing");
  await expect(card).toContainText("the till");

  await page.reload();
  await expect(page.getByLabel("Signing secret")).toHaveCount(0); // shown once only
  await expect(page.getByText(secret.slice(6))).toHaveCount(0);
  await endpointCard(page, url).getByRole("link", { name: url }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/${id}$`));
  await expect(page.getByRole("heading", { name: "Webhook endpoint" })).toBeVisible();
  await expect(page.locator(".endpoint-url")).toHaveText(url);
});

test("on an endpoint's page an owner disables and enables it, rotates its secret, sends a test event, resends it, and deletes it once confirmed", async ({ page, sql }) => {
  const url = "http://127.0.0.1:9/e2e/managed";
  const { id, secret } = await addEndpoint(page, url);
  await page.goto(`/webhooks/${id}`);
  await expect(navLink(page, "Webhooks")).toHaveAttribute("aria-current", "true");
  const status = page.getByRole("definition").filter({ hasText: /^(Enabled|Disabled)/ });

  await page.getByRole("button", { name: "Disable endpoint" }).click();
  await expect(status).toHaveText(new RegExp(`^Disabled \\(disabled by ${OWNER.email.replaceAll(".", "\\.")}, \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d\\)$`));
  // An owner's own choice is no news to owners: the notice (if other specs left one) does not name it.
  await expect(page.locator(".notice").getByText(url)).toHaveCount(0);
  await page.getByRole("button", { name: "Enable endpoint" }).click();
  await expect(status).toHaveText("Enabled");

  await page.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByLabel("New signing secret");
  await expect(rotated).toHaveValue(/^whsec_/);
  // The button was disabled while it ran; focus goes to the new secret, selected for copying.
  await expect(rotated).toBeFocused();
  expect(await rotated.inputValue()).not.toBe(secret);
  await expect(page.getByText("The old secret keeps signing deliveries for 24 more hours")).toBeVisible();
  await expect(page.getByText("rotated; the previous secret also signs until")).toBeVisible();

  await expect(page.getByText("No deliveries yet.")).toBeVisible();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "queued" })).toHaveText(/^Test event msg_[0-9a-f]{32} queued/);
  const eventId = (await page.getByRole("status").filter({ hasText: "queued" }).textContent())!.match(/msg_[0-9a-f]{32}/)![0];
  const deliveries = page.getByRole("region", { name: "Recent deliveries" }).getByRole("listitem");
  await expect(deliveries).toHaveCount(1);
  await expect(deliveries.first()).toContainText("webhook.test");
  await expect(deliveries.first()).toContainText(eventId);
  await expect(deliveries.first()).toContainText("Attempts");

  // A resend is a new delivery of the same event: the same webhook-id.
  await page.getByRole("button", { name: `Resend webhook.test ${eventId}` }).click();
  await expect(deliveries).toHaveCount(2);
  await expect(deliveries.filter({ hasText: eventId })).toHaveCount(2);

  await page.getByRole("button", { name: "Delete endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this endpoint?" });
  await expect(dialog).toContainText(`Delete the endpoint ${url}?`);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete endpoint" }).click();
  await dialog.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(endpointCard(page, url)).toHaveCount(0);
  expect((await page.request.get(`/webhooks/${id}`)).status()).toBe(404);

  // Each change is recorded as the owner's, from this browser (issue 22).
  const by = { actor_kind: "person", actor_name: OWNER.name, client_address: "127.0.0.1", user_agent: await page.evaluate(() => navigator.userAgent) };
  expect(await sql("SELECT action, actor_kind, actor_name, client_address, user_agent FROM activity WHERE subject_id = $1 ORDER BY id", [id])).toEqual(
    ["webhook.created", "webhook.disabled", "webhook.enabled", "webhook.rotated", "webhook.deleted"].map((action) => ({ action, ...by })),
  );
});

test("on an endpoint's page an owner changes its URL, events and description; a refused URL changes nothing", async ({ page, sql }) => {
  const url = "http://127.0.0.1:9/e2e/to-change";
  const { id } = await addEndpoint(page, url, { events: ["plant.created"], description: "the till" });
  await page.goto(`/webhooks/${id}`);
  const form = page.getByRole("region", { name: "Change the endpoint" });
  await expect(form.getByLabel("URL")).toHaveValue(url);
  await expect(form.getByLabel("Description (optional)")).toHaveValue("the till");
  await expect(form.getByRole("checkbox", { name: "plant.created" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "plant.deleted" })).not.toBeChecked();

  // Checked by the server alone, as for a new endpoint: the name does not resolve.
  await form.getByLabel("URL").fill("https://no-such-host.invalid/hook");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("#webhook-url-error")).toHaveText("URL's host no-such-host.invalid does not resolve to an address.");
  await expect(form.getByLabel("URL")).toBeFocused();
  await page.reload();
  await expect(page.locator(".endpoint-url")).toHaveText(url);

  const moved = "http://127.0.0.1:9/e2e/changed";
  await form.getByLabel("URL").fill(moved);
  await form.getByRole("checkbox", { name: "plant.deleted" }).check();
  await form.getByLabel("Description (optional)").fill("the till and the shop");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status")).toHaveText("The endpoint’s changes are saved.");
  await expect(page.locator(".endpoint-url")).toHaveText(moved);
  const fact = (term: string) => page.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd");
  await expect(fact("Events")).toHaveText("plant.created, plant.deleted");
  await expect(fact("Description")).toHaveText("the till and the shop");
  await page.reload();
  await expect(form.getByLabel("URL")).toHaveValue(moved);
  await expect(form.getByRole("checkbox", { name: "plant.deleted" })).toBeChecked();

  // One record, the owner's, with only what changed (issue 22).
  const records = (await sql("SELECT action, actor_name, changes FROM activity WHERE subject_id = $1 ORDER BY id", [id])) as { action: string; actor_name: string; changes: string }[];
  expect(records.map((record) => [record.action, record.actor_name])).toEqual([
    ["webhook.created", OWNER.name],
    ["webhook.changed", OWNER.name],
  ]);
  expect(JSON.parse(records[1]!.changes)).toEqual({
    before: { url, description: "the till", events: ["plant.created"] },
    after: { url: moved, description: "the till and the shop", events: ["plant.created", "plant.deleted"] },
  });
  // And in Activity, old → new, as a screen reader reads it.
  await page.goto("/activity?action=webhook.changed");
  await expect(page.locator(".field-changes").filter({ hasText: moved })).toMatchAriaSnapshot(`
    - list:
      - listitem: "URL: from ${url} to ${moved}"
      - listitem: "Description: from the till to the till and the shop"
      - listitem: "Events: from plant.created to plant.created, plant.deleted"
  `);
});

test("the form explains what is missing, and shows the server's reason when the URL is refused", async ({ page }) => {
  await page.goto("/webhooks");
  for (const event of WEBHOOK_EVENT_TYPES) await page.getByRole("checkbox", { name: event }).uncheck();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  // In sentences, from the schema the API and the CLI share (issue 11).
  await expect(page.locator("#webhook-url-error")).toHaveText("URL is required.");
  await expect(page.locator("#webhook-events-error")).toHaveText("Choose at least one event.");
  await expect(page.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("URL")).toBeFocused();

  await page.getByLabel("URL").fill("ftp://files.example/hook");
  await expect(page.locator("#webhook-url-error")).toHaveText("URL must be an https:// URL.");

  // Checked by the server alone: the name does not resolve.
  await page.getByLabel("URL").fill("https://no-such-host.invalid/hook");
  await page.getByRole("checkbox", { name: "plant.created" }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const reason = "URL's host no-such-host.invalid does not resolve to an address.";
  await expect(page.locator("#webhook-url-error")).toHaveText(reason);
  await expect(page.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("URL")).toBeFocused();
  await expect(page.getByLabel("Signing secret")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await expect(endpointCard(page, "https://no-such-host.invalid/hook")).toHaveCount(0);
});

test.describe("as staff who are not owners", () => {
  test.use({ storageState: SIGNED_OUT });

  test("webhooks are not there: no link, and 404 for the pages", async ({ signedInNewAccount }) => {
    const page = await signedInNewAccount({ email: "wes@plants.example", name: "Wes Staff", role: "staff", password: "staff passphrase, long enough" });
    await expect(navLink(page, "Webhooks")).toHaveCount(0);
    expect((await page.request.get("/webhooks")).status()).toBe(404);
    await page.goto("/webhooks");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    expect((await page.request.get("/webhooks/any-id")).status()).toBe(404);
  });
});

test("owners are told when the app disabled an endpoint by itself, until it is enabled again", async ({ page, sql, signedInNewAccount }) => {
  const url = "http://127.0.0.1:9/e2e/gone";
  const { id } = await addEndpoint(page, url);
  // As the delivery worker does when a receiver answers 410 Gone.
  await sql("UPDATE webhook_endpoints SET enabled = false, disabled_reason = $1 WHERE id = $2", ["the receiver answered 410 Gone", id]);

  await page.goto("/tokens");
  const notice = page.locator(".notice");
  // Other specs' endpoints may be listed too: this one is, with its reason.
  await expect(notice).toContainText(/Plant Store disabled (a webhook endpoint|\d+ webhook endpoints) by itself/);
  await expect(notice).toContainText(`${url}: the receiver answered 410 Gone`);

  const staffPage = await signedInNewAccount({ email: "sol@plants.example", name: "Wes Staff", role: "staff", password: "staff passphrase, long enough" });
  await expect(staffPage.getByText("Plant Store disabled")).toHaveCount(0);

  await notice.getByRole("link", { name: url }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/${id}$`));
  await expect(page.getByRole("definition").filter({ hasText: /^Disabled/ })).toHaveText("Disabled (the receiver answered 410 Gone)");
  await page.getByRole("button", { name: "Enable endpoint" }).click();
  await expect(page.getByRole("definition").filter({ hasText: /^Enabled$/ })).toBeVisible();
  await expect(notice.getByText(url)).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  await expect(notice.getByText(url)).toHaveCount(0);
});

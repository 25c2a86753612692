import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, OWNER, SIGNED_OUT, signIn, test } from "./fixtures";

async function createToken(page: Page, label: string, scopes: ("plants:read" | "plants:write")[]): Promise<string> {
  await page.goto("/tokens");
  await page.getByLabel("Label").fill(label);
  for (const scope of ["plants:read", "plants:write"] as const) {
    await page.getByRole("checkbox", { name: scope }).setChecked(scopes.includes(scope));
  }
  await page.getByLabel("Expires after").selectOption("7d");
  await page.getByRole("button", { name: "Create token" }).click();
  const value = page.getByLabel("New API token");
  await expect(value).toBeVisible();
  return value.inputValue();
}

test("a token made in the UI creates a plant through the API until it is revoked", async ({ page, request, context, sql }) => {
  const token = await createToken(page, "till sync", ["plants:write"]);
  // After the save, focus is on the new token, selected, ready to copy (issue 11).
  await expect(page.getByLabel("New API token")).toBeFocused();
  expect(await page.getByLabel("New API token").evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0))).toBe(token);
  await expect(page.getByText("it is shown only this once")).toBeVisible();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  const row = page.getByRole("row", { name: /till sync/ });
  await expect(row).toContainText("plants:write");
  await expect(row).toContainText("active");

  const plant = { id: 777001, name: "Calathea orbifolia" };
  const created = await request.post("/plants", { headers: { authorization: `Bearer ${token}` }, data: plant });
  expect(created.status()).toBe(200);
  expect(await created.json()).toEqual(plant);

  await page.reload();
  await expect(page.getByLabel("New API token")).toHaveCount(0); // shown once only
  await page.getByRole("button", { name: "Revoke token till sync" }).click();
  await expect(page.getByRole("row", { name: /till sync/ })).toContainText("revoked");

  const refused = await request.post("/plants", { headers: { authorization: `Bearer ${token}` }, data: { id: 777002, name: "Calathea" } });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["www-authenticate"]).toContain('error="invalid_token"');
  expect(await refused.json()).toEqual({ error: 401, message: "the bearer token has been revoked" });

  // Made and revoked by the owner, from this browser, and so recorded (issue 22).
  const by = { actor_kind: "person", actor_name: OWNER.name, client_address: "127.0.0.1", user_agent: await page.evaluate(() => navigator.userAgent) };
  const records = await sql(
    "SELECT a.action, a.actor_kind, a.actor_name, a.client_address, a.user_agent FROM activity a JOIN api_tokens t ON t.id = a.subject_id WHERE a.subject_kind = 'token' AND t.label = $1 ORDER BY a.id",
    ["till sync"],
  );
  expect(records).toEqual([{ action: "token.created", ...by }, { action: "token.revoked", ...by }]);
});

test("the token form explains what is missing", async ({ page }) => {
  await page.goto("/tokens");
  await page.getByRole("checkbox", { name: "plants:read" }).uncheck();
  await page.getByLabel("Label").fill("  ");
  await page.getByRole("button", { name: "Create token" }).click();
  // In sentences, from the schema the server action parses with (issue 11).
  await expect(page.locator("#token-label-error")).toHaveText("Label is required.");
  await expect(page.locator("#token-scopes-error")).toHaveText("Choose at least one scope.");
  await expect(page.getByLabel("Label")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Label")).toBeFocused();
  await expectNoAxeViolations(page);
});

test.describe("staff and owner", () => {
  test.use({ storageState: SIGNED_OUT });

  test("staff see only their own tokens; the owner sees and revokes everyone's", async ({ browser, page, ownerState, createAccount }) => {
    const staff = { email: "sam@plants.example", name: "Sam Staff", role: "staff" as const, password: "another long passphrase" };
    await createAccount(staff);
    await page.goto("/tokens");
    await signIn(page, staff.email, staff.password);
    await expect(page.getByRole("heading", { name: "Your tokens" })).toBeVisible();
    await createToken(page, "sam's scanner", ["plants:read"]);
    await expect(page.getByRole("row", { name: /sam's scanner/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /till sync/ })).toHaveCount(0);

    const ownerContext = await browser.newContext({ storageState: ownerState });
    const owner = await ownerContext.newPage();
    await owner.goto("/tokens");
    await expect(owner.getByRole("heading", { name: "Everyone’s tokens" })).toBeVisible();
    const row = owner.getByRole("row", { name: /sam's scanner/ });
    await expect(row).toContainText(staff.email);
    await owner.getByRole("button", { name: "Revoke token sam's scanner" }).click();
    await expect(row).toContainText("revoked");
    await ownerContext.close();

    await page.reload();
    await expect(page.getByRole("row", { name: /sam's scanner/ })).toContainText("revoked");
  });
});

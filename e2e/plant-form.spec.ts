import { expect, expectNoAxeViolations, test } from "./fixtures";

test.beforeEach(async ({ page }) => {
  await page.goto("/plants/new");
  await expect(page.getByRole("heading", { name: "Add a plant" })).toBeVisible();
});

test("the form shows the shared schema's errors as the user types and on submit", async ({ page }) => {
  const id = page.getByLabel("Id");
  await page.getByRole("button", { name: "Add plant" }).click();
  await expect(page.getByText("id is required")).toBeVisible();
  await expect(page.getByText("name must not be empty")).toBeVisible();
  await expect(id).toHaveAttribute("aria-invalid", "true");
  await expect(id).toBeFocused();
  await expect(id).toHaveAccessibleDescription(/id is required/);

  await id.fill("12x");
  await expect(page.getByText("id must be a whole number")).toBeVisible();
  await id.fill("9223372036854775808");
  await expect(page.getByText("id must be an integer from -9223372036854775808 to 9223372036854775807")).toBeVisible();
  await id.fill("-9223372036854775808");
  await expect(id).toHaveAttribute("aria-invalid", "false");

  await page.getByLabel("Name").fill("   ");
  await expect(page.getByText("name must not be only whitespace")).toBeVisible();
  await page.getByLabel("Tag (optional)").fill("x".repeat(51));
  await expect(page.getByText("tag must be at most 50 characters (got 51)")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a plant with id 9007199254740993 is saved and listed with that exact id", async ({ page }) => {
  await page.getByLabel("Id").fill("9007199254740993");
  await page.getByLabel("Name").fill("Monstera deliciosa");
  await page.getByLabel("Tag (optional)").fill("aroid");
  await page.getByRole("button", { name: "Add plant" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved Monstera deliciosa (aroid) with id 9007199254740993.");
  await expect(page.getByLabel("Id")).toHaveValue("");
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Plants", exact: true }).click();
  const row = page.getByRole("row", { name: /Monstera deliciosa/ });
  await expect(row.getByRole("cell").first()).toHaveText("9007199254740993");
  await expect(page.getByText("9007199254740992")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a taken id is shown as an error on the id field", async ({ page }) => {
  const add = async (name: string) => {
    await page.getByLabel("Id").fill("4242");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Add plant" }).click();
  };
  await add("Ficus lyrata");
  await expect(page.getByRole("status")).toContainText("with id 4242");
  await add("Ficus elastica");
  await expect(page.getByText("a plant with id 4242 already exists with different data; choose another id")).toBeVisible();
  await expect(page.getByLabel("Id")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Id")).toBeFocused();
  await expect(page.getByRole("status")).toHaveText("");
});

test("the form works from the keyboard alone", async ({ page }) => {
  await page.getByLabel("Id").focus();
  await page.keyboard.type("-17");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Aloe vera");
  await page.keyboard.press("Tab");
  await page.keyboard.type("succulent");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Saved Aloe vera (succulent) with id -17.");
});

test("the forms cannot be sent before their scripts run, when a click would reload the bare page", async ({ page }) => {
  for (const [path, button] of [
    ["/plants/new", "Add plant"],
    ["/tokens", "Create token"],
  ] as const) {
    const html = await (await page.request.get(path)).text();
    expect(html, path).toMatch(new RegExp(`<button type="submit" disabled="">${button}</button>`));
    await page.goto(path);
    await expect(page.getByRole("button", { name: button })).toBeEnabled();
  }
});

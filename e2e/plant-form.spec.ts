import { expect, expectNoAxeViolations, test } from "./fixtures";

test.beforeEach(async ({ page }) => {
  await page.goto("/plants/new");
  await expect(page.getByRole("heading", { name: "Add a plant" })).toBeVisible();
  // The fields are disabled until the page has hydrated (components/forms/hydrated-form.tsx): a key pressed
  // sooner goes nowhere, and a loaded run's keyboard-only test focused nothing and pressed Enter on a link.
  await expect(page.getByLabel("Id")).toBeEnabled();
});

test("the form shows the shared schema's errors, as sentences, as the user types and on submit", async ({ page }) => {
  const id = page.getByLabel("Id");
  await id.fill("");
  await page.getByRole("button", { name: "Add plant" }).click();
  await expect(page.getByText("Id is required.", { exact: true })).toBeVisible();
  await expect(page.getByText("Name must not be empty.", { exact: true })).toBeVisible();
  await expect(id).toHaveAttribute("aria-invalid", "true");
  await expect(id).toBeFocused();
  await expect(id).toHaveAccessibleDescription(/Id is required\./);

  await id.fill("12x");
  await expect(page.getByText("Id must be a whole number: digits only, with an optional leading minus.", { exact: true })).toBeVisible();
  await id.fill("9223372036854775808");
  await expect(page.getByText("Id must be an integer from -9223372036854775808 to 9223372036854775807.", { exact: true })).toBeVisible();
  await id.fill("-9223372036854775808");
  await expect(id).toHaveAttribute("aria-invalid", "false");

  await page.getByLabel("Name").fill("   ");
  await expect(page.getByText("Name must not be only whitespace.", { exact: true })).toBeVisible();
  await page.getByLabel("Tag (optional)").fill("x".repeat(51));
  await expect(page.getByText("Tag must be at most 50 characters (got 51).", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a plant with id 9007199254740993 is saved, linked and listed with that exact id; the form is ready for the next", async ({ page }) => {
  await page.getByLabel("Id").fill("9007199254740993");
  await page.getByLabel("Name").fill("Monstera deliciosa");
  await page.getByLabel("Tag (optional)").fill("aroid");
  await page.getByRole("button", { name: "Add plant" }).click();
  const status = page.getByRole("status");
  await expect(status).toHaveText("Saved Monstera deliciosa (aroid) with id 9007199254740993.");
  await expect(status.getByRole("link", { name: "Monstera deliciosa" })).toHaveAttribute("href", "/plants/9007199254740993");
  // The next id is offered, exactly, in the field that has the focus, selected so that typing replaces it.
  const id = page.getByLabel("Id");
  await expect(id).toHaveValue("9007199254740994");
  await expect(id).toBeFocused();
  expect(await id.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, "9007199254740994".length]);
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByLabel("Tag (optional)")).toHaveValue("");

  await page.getByRole("link", { name: "Plants", exact: true }).click();
  const row = page.getByRole("row", { name: /Monstera deliciosa/ });
  await expect(row.getByRole("cell").first()).toHaveText("9007199254740993");
  await expect(page.getByText("9007199254740992")).toHaveCount(0);
});

test("the next free id is offered: one more than the largest stored, and a free one once the largest int64 is taken", async ({ page, sql }) => {
  const INT64_MAX = 2n ** 63n - 1n;
  const largestStored = async () => BigInt(String((await sql("SELECT MAX(id) AS largest FROM plants"))[0]?.largest ?? 0));
  const largest = await largestStored();
  // No other spec stores the largest int64: this one takes it itself, and gives it back below.
  expect(largest).toBeLessThan(INT64_MAX);
  const expected = largest + 1n > 1n ? largest + 1n : 1n;
  await page.reload();
  await expect(page.getByLabel("Id")).toHaveValue(expected.toString());

  // Nothing lies above 9223372036854775807: the top of the highest gap below it instead, which here is the same id.
  const last = await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin", "content-type": "application/json" }, data: `{"id":${INT64_MAX},"name":"The last id"}` });
  expect(last.status()).toBe(200);
  try {
    expect(await largestStored()).toBe(INT64_MAX);
    await page.reload();
    await expect(page.getByLabel("Id")).toHaveValue(expected.toString());
  } finally {
    await sql(`DELETE FROM plants WHERE id = ${INT64_MAX}`);
  }
});

test("an identical plant already stored is reported as already stored, not as a new save", async ({ page }) => {
  const add = async () => {
    await page.getByLabel("Id").fill("4343");
    await page.getByLabel("Name").fill("Pilea peperomioides");
    await page.getByLabel("Tag (optional)").fill("succulent");
    await page.getByRole("button", { name: "Add plant" }).click();
  };
  await add();
  await expect(page.getByRole("status")).toHaveText("Saved Pilea peperomioides (succulent) with id 4343.");
  await add();
  const status = page.getByRole("status");
  await expect(status).toHaveText("Pilea peperomioides (succulent) with id 4343 was already stored; nothing was changed.");
  await expect(status.getByRole("link", { name: "Pilea peperomioides" })).toHaveAttribute("href", "/plants/4343");
  await expect(page.getByLabel("Id")).toBeFocused();
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
  await expect(page.getByText("A plant with id 4242 already exists with different data; choose another id.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Id")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Id")).toBeFocused();
  await expect(page.getByRole("status")).toHaveText("");
});

test("the form works from the keyboard alone, and each save brings focus back to Id, ready for the next plant", async ({ page }) => {
  const id = page.getByLabel("Id");
  await id.focus();
  // Over the offered id.
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("-17");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Aloe vera");
  await page.keyboard.press("Tab");
  await page.keyboard.type("succulent");
  // Enter in Tag: focus used to stay there.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Saved Aloe vera (succulent) with id -17.");
  await expect(id).toBeFocused();

  // The next plant, typed straight over the offered id; then the button, clicked: focus used to be lost with it.
  await page.keyboard.type("-16");
  await expect(id).toHaveValue("-16");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Haworthia");
  await page.getByRole("button", { name: "Add plant" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved Haworthia with id -16.");
  await expect(id).toBeFocused();
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

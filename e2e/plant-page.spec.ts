import { expect, expectNoAxeViolations, OWNER, SIGNED_OUT, signIn, test } from "./fixtures";
import { addPlants, bearer, patchAsSomeoneElse, withoutLiveUpdates, writeToken } from "./plants";

// A plant's page at the plant's own URL (issue 11): a browser gets the page,
// a program the API's JSON; edit and delete only on the version the page
// shows, and a change someone else made meanwhile explained, with a choice.

let token = "";

test.beforeAll(async ({ store }) => {
  token = await writeToken(store);
});

test("a browser gets the plant's page where a program gets its JSON, at the same URL", async ({ page, request }) => {
  // A page that React renders differently in the browser than on the server (a hydration mismatch) logs an error.
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const id = 9_007_199_254_740_993n + 7_400_000n;
  await addPlants(page, [{ id, name: "Monstera deliciosa", tag: "tropical" }]);
  const response = await page.goto(`/plants/${id}`);
  expect(response!.headers()["vary"]).toMatch(/\bAccept\b/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Monstera deliciosa");
  await expect(page.locator("dd.id")).toHaveText(String(id));
  await expect(page.getByRole("definition").filter({ hasText: "never" })).toBeVisible();
  // The page belongs to the Plants section of the header.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Plants" })).toHaveAttribute("aria-current", "true");

  // `request` has no cookies: a program with a token, as curl would send it.
  const api = await request.get(`/plants/${id}`, { headers: bearer(token) });
  expect(api.status()).toBe(200);
  expect(api.headers()["content-type"]).toBe("application/json");
  expect(api.headers()["vary"]).toMatch(/\bAccept\b/);
  expect(await api.text()).toBe(`{"id":${id},"name":"Monstera deliciosa","tag":"tropical"}`);
  // Even one that asks for HTML: a token always means the API.
  const html = await request.get(`/plants/${id}`, { headers: { ...bearer(token), accept: "text/html" } });
  expect(await html.text()).toBe(`{"id":${id},"name":"Monstera deliciosa","tag":"tropical"}`);
  expect(errors).toEqual([]);
});

test("an id no plant has, or one not written the canonical way, is a page not found", async ({ page }) => {
  await addPlants(page, [{ id: 7_410_001n, name: "Zamioculcas" }]);
  for (const path of ["/plants/7410002", "/plants/07410001", "/plants/7410001.0", "/plants/not-an-id", "/plants/9223372036854775808"]) {
    const response = await page.goto(path);
    expect(response!.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("No such plant");
  }
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Find it among the plants" }).click();
  await expect(page).toHaveURL(/\/$/);
  // The page's own route is no second URL for a plant.
  expect((await page.goto("/plant-page/7410001"))!.status()).toBe(404);
});

test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });
  test("a plant's URL leads to sign-in, then back to the plant", async ({ browser, page, ownerState }) => {
    const owner = await browser.newContext({ storageState: ownerState });
    await addPlants(await owner.newPage(), [{ id: 7_420_001n, name: "Pothos" }]);
    await owner.close();
    await page.goto("/plants/7420001");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fplants%2F7420001$/);
    await signIn(page, OWNER.email, OWNER.password);
    await expect(page).toHaveURL(/\/plants\/7420001$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pothos");
  });
});

test("an edit is saved on the version shown; clearing the tag removes it", async ({ page, request }) => {
  const id = 9_007_199_254_740_993n + 7_430_000n;
  await addPlants(page, [{ id, name: "Monstera deliciosa", tag: "tropical" }]);
  await page.goto(`/plants/${id}`);
  await page.getByLabel("Name").fill("Swiss cheese plant");
  await page.getByLabel("Tag (optional)").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText("Saved: Swiss cheese plant, no tag.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Swiss cheese plant");
  await expect(page.getByRole("definition").filter({ hasText: "never" })).toHaveCount(0);
  expect(await (await request.get(`/plants/${id}`, { headers: bearer(token) })).text()).toBe(`{"id":${id},"name":"Swiss cheese plant"}`);

  // Saved again from the keyboard, on the version the first save made: no conflict with itself.
  await page.getByLabel("Tag (optional)").fill("aroid");
  await page.getByLabel("Tag (optional)").press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText("Saved: Swiss cheese plant, tag aroid.");
});

test("the form checks as it is typed, and the API's field errors land on their fields", async ({ page }) => {
  await addPlants(page, [{ id: 7_440_001n, name: "Ficus lyrata" }]);
  await page.goto("/plants/7440001");
  await page.getByLabel("Name").fill("   ");
  await expect(page.getByText("Name must not be only whitespace.")).toBeVisible();
  await page.getByLabel("Name").fill("Ficus elastica");

  // The browser's rules are the API's, so only a request changed on its way shows the API's own answer.
  await page.route("**/plants/7440001", (route) =>
    route.request().method() === "PATCH" ? route.continue({ postData: '{"tag":"  "}' }) : route.continue(),
  );
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByLabel("Tag (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Tag (optional)")).toHaveAccessibleDescription(/Tag must not be only whitespace\./);
  await expect(page.getByLabel("Tag (optional)")).toBeFocused();
});

test("a change made meanwhile is explained, and the person keeps their edit over it", async ({ page, request }) => {
  await withoutLiveUpdates(page);
  const id = 9_007_199_254_740_993n + 7_450_000n;
  await addPlants(page, [{ id, name: "Calathea", tag: "prayer plant" }]);
  await page.goto(`/plants/${id}`);
  await patchAsSomeoneElse(request, token, id, '{"tag":"maranta"}');

  await page.getByLabel("Name").fill("Calathea orbifolia");
  await page.getByRole("button", { name: "Save changes" }).click();
  const conflict = page.getByRole("region", { name: "Someone else changed this plant" });
  await expect(conflict.getByRole("heading")).toBeFocused();
  await expect(conflict.getByRole("row", { name: /Name/ })).toHaveText(/Calathea orbifolia.*Calathea/);
  await expect(conflict.getByRole("row", { name: /Tag/ })).toHaveText(/not changed by you.*maranta/);

  await conflict.getByRole("button", { name: "Keep my edit" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText("Saved: Calathea orbifolia, tag maranta.");
  await expect(conflict).toHaveCount(0);
  await expect(page.getByLabel("Name")).toBeFocused();
  expect(await (await request.get(`/plants/${id}`, { headers: bearer(token) })).text()).toBe(`{"id":${id},"name":"Calathea orbifolia","tag":"maranta"}`);
  await expect(page.getByLabel("Tag (optional)")).toHaveValue("maranta");
});

test("a change made meanwhile can be taken instead, and the next save builds on it", async ({ page, request }) => {
  await withoutLiveUpdates(page);
  const id = 7_460_001n;
  await addPlants(page, [{ id, name: "Aloe", tag: "succulent" }]);
  await page.goto(`/plants/${id}`);
  await patchAsSomeoneElse(request, token, id, '{"name":"Aloe vera"}');

  await page.getByLabel("Name").fill("Aloe barbadensis");
  await page.getByRole("button", { name: "Save changes" }).click();
  const conflict = page.getByRole("region", { name: "Someone else changed this plant" });
  await expect(conflict.getByRole("row", { name: /Name/ })).toHaveText(/Aloe barbadensis.*Aloe vera/);
  await conflict.getByRole("button", { name: "Take the saved version" }).click();
  await expect(page.getByLabel("Name")).toHaveValue("Aloe vera");
  await expect(page.getByLabel("Name")).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aloe vera");
  expect(await (await request.get(`/plants/${id}`, { headers: bearer(token) })).text()).toBe(`{"id":${id},"name":"Aloe vera","tag":"succulent"}`);

  await page.getByLabel("Tag (optional)").fill("medicinal");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText("Saved: Aloe vera, tag medicinal.");
});

test("delete asks first, naming the plant, from the keyboard, then the list says it is gone", async ({ page, request }) => {
  const id = 9_007_199_254_740_993n + 7_470_000n;
  await addPlants(page, [{ id, name: "Monstera deliciosa", tag: "e2e-delete" }]);
  await page.goto(`/plants/${id}`);
  const opener = page.getByRole("button", { name: "Delete plant" });
  // Enabled once the page has hydrated: focus() waits for nothing, and a key pressed sooner would do nothing.
  await expect(opener).toBeEnabled();
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Delete Monstera deliciosa (id ${id})?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await page.keyboard.press("Enter");
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("button", { name: "Delete", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  const gone = page.getByRole("status").filter({ hasText: "Deleted" });
  await expect(gone).toHaveText(`Deleted Monstera deliciosa (id ${id}).`);
  await expect(gone).toBeFocused();
  expect((await request.get(`/plants/${id}`, { headers: bearer(token) })).status()).toBe(404);
  // Said once: not again on the next visit.
  await page.reload();
  await expect(page.getByText(`Deleted Monstera deliciosa (id ${id}).`)).toHaveCount(0);
});

test("a delete after a change made meanwhile shows the change and asks again", async ({ page, request }) => {
  await withoutLiveUpdates(page);
  await addPlants(page, [
    { id: 7_480_001n, name: "Sansevieria", tag: "e2e-delete" },
    { id: 7_480_002n, name: "Zamioculcas", tag: "e2e-delete" },
  ]);

  // Kept: the page takes the other version, and a later delete acts on it.
  await page.goto("/plants/7480001");
  await patchAsSomeoneElse(request, token, 7_480_001n, '{"name":"Dracaena trifasciata"}');
  await page.getByRole("button", { name: "Delete plant" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Dracaena trifasciata (id 7480001)?" });
  await expect(dialog).toContainText("Someone else changed this plant after this page was loaded");
  await expect(dialog.getByRole("definition").first()).toHaveText("Dracaena trifasciata");
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dracaena trifasciata");
  await expect(page.getByLabel("Name")).toHaveValue("Dracaena trifasciata");
  expect((await request.get("/plants/7480001", { headers: bearer(token) })).status()).toBe(200);

  // Deleted anyway, on the version shown in the dialog.
  await page.goto("/plants/7480002");
  await patchAsSomeoneElse(request, token, 7_480_002n, '{"tag":"zz plant"}');
  await page.getByRole("button", { name: "Delete plant" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete it anyway" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted" })).toHaveText("Deleted Zamioculcas (id 7480002).");
  expect((await request.get("/plants/7480002", { headers: bearer(token) })).status()).toBe(404);
});

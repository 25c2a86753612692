import { expect, SIGNED_OUT, test } from "./fixtures";

// Issue 11: /docs shows an id's int64 bounds as /openapi.json writes them,
// not as JavaScript prints the doubles Swagger UI reads them into
// (-9223372036854776000, 9223372036854776000).

test.use({ storageState: SIGNED_OUT });

const RANGE = "[-9223372036854775808, 9223372036854775807]";

test("the reference shows the int64 bounds exactly: in models, request and response schemas, examples, and Try it out", async ({ page, request }) => {
  const served = await (await request.get("/openapi.json")).text();
  expect(served).toContain('"minimum":-9223372036854775808,"maximum":9223372036854775807');

  await page.goto("/docs");
  const reference = page.locator(".api-reference");
  const ranges = (within = reference) => within.locator(".json-schema-2020-12__constraint--number").filter({ hasText: "922337203685477" });
  // Drawn in the browser after load; then every operation opened.
  const openers = page.locator(".opblock-summary-control");
  await expect(openers).toHaveCount(11);
  for (const opener of await openers.all()) await opener.click();
  await expect(page.locator(".responses-table")).toHaveCount(11);

  // The models, shown open two levels deep: NewPlant, Plant and PlantPatch each have an id.
  const models = page.locator("section.models");
  await expect.poll(() => ranges(models).count()).toBeGreaterThanOrEqual(3);
  for (const range of await ranges(models).all()) await expect(range).toHaveText(RANGE);

  // An operation: its example body (an id's example is its minimum), its request and response schemas.
  const createPlant = page.locator(".opblock-post").filter({ has: page.locator('.opblock-summary-path[data-path="/plants"]') });
  const requestBody = createPlant.locator(".opblock-section-request-body");
  await expect(requestBody.locator(".highlight-code")).toContainText('"id": -9223372036854775808,');
  await requestBody.getByRole("tab", { name: "Schema" }).click();
  await expect(ranges(requestBody)).toHaveText([RANGE]);
  const responses = createPlant.locator(".responses-table");
  await expect(responses.locator(".highlight-code").first()).toContainText('"id": -9223372036854775808,');
  await responses.getByRole("tab", { name: "Schema" }).first().click();
  await expect(ranges(responses)).toHaveText([RANGE]);

  // Try it out starts from the example, exact, and sends it so (not an id out of range).
  await createPlant.getByRole("button", { name: "Try it out" }).click();
  await expect(createPlant.getByLabel("Request body")).toHaveValue(/"id": -9223372036854775808,/);
  const sent = page.waitForRequest((sending) => sending.method() === "POST" && new URL(sending.url()).pathname === "/plants");
  await createPlant.getByRole("button", { name: "Execute" }).click();
  expect((await sent).postData()).toMatch(/"id": -9223372036854775808,/);

  // Nowhere, in any operation, a bound as JavaScript prints it.
  await expect(reference).not.toContainText("9223372036854776000");
  expect(await reference.locator("textarea").evaluateAll((areas) => areas.map((area) => (area as HTMLTextAreaElement).value).join(" "))).not.toContain(
    "9223372036854776000",
  );
});

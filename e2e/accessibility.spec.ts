import { expect, expectNoAxeViolations, SIGNED_OUT, test } from "./fixtures";
import { withoutLiveUpdates } from "./plants";

// Every page, at desktop and at phone width: no axe violations, and nothing
// wider than the screen (a table becomes cards where it is narrow, or scrolls
// inside its own region; webhooks are cards that wrap). The API reference
// with every operation open and tried out is checked in api-reference.spec.ts,
// which opens them all for its own checks too.

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("staff pages", async ({ page, sql }) => {
      // Every page once, in its widest state, under the notice owners get when the app disabled an endpoint by
      // itself (on every staff page): an endpoint added first, then disabled as the app would.
      const plant = { id: 990000 + width, name: "Dracaena trifasciata, the snake plant with a long name", tag: "succulent" };
      expect((await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: plant })).status()).toBe(200);
      const addEndpoint = async (url: string, description: string) => {
        await page.goto("/webhooks");
        await page.getByLabel("URL").fill(url);
        await page.getByLabel("Description (optional)").fill(description);
        await page.getByRole("button", { name: "Add endpoint" }).click();
        await expect(page.getByLabel("Signing secret")).toBeVisible();
        return (await page.getByRole("link", { name: "Open this endpoint" }).getAttribute("href"))!;
      };
      const disabledPath = await addEndpoint(`http://127.0.0.1:9/accessibility-check/${width}/disabled-by-the-app/a-long-path-that-must-wrap-in-the-notice?and=a-query`, "");
      const disabledId = disabledPath.replace("/webhooks/", "");
      await sql("UPDATE webhook_endpoints SET enabled = false, disabled_reason = $1 WHERE id = $2", ["failing for 5 days without one delivery succeeding", disabledId]);
      const checked = async (what: string) => {
        await expect(page.getByText("Plant Store disabled a webhook endpoint")).toBeVisible();
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${what} fits`).toBe(true);
      };
      try {
        // Rows in both tables and a freshly shown token: the widest each page gets.
        await page.goto("/tokens");
        await page.getByLabel("Label").fill(`accessibility check at ${width}px`);
        await page.getByRole("button", { name: "Create token" }).click();
        await expect(page.getByLabel("New API token")).toBeVisible();
        await checked("/tokens with a new token");

        // A webhook endpoint with a long URL: its secret shown, a delivery that failed, a rotated secret, the delete dialog.
        const endpointPath = await addEndpoint(
          `http://127.0.0.1:9/accessibility-check/${width}/a-long-path-that-must-wrap-rather-than-widen-the-page?and=a-query`,
          "The point-of-sale system in the greenhouse shop, which keeps its own list",
        );
        await checked("/webhooks with a new secret");
        const endpointId = endpointPath.replace("/webhooks/", "");
        await page.goto(endpointPath);
        await page.getByRole("button", { name: "Send test event" }).click();
        await expect(page.getByRole("region", { name: "Recent deliveries" }).getByRole("listitem")).toHaveCount(1);
        await sql("UPDATE webhook_deliveries SET attempts = 8, last_status = 503, last_error = $1, last_attempt_at = created_at WHERE endpoint_id = $2", [
          "the receiver answered 503 Service Unavailable: upstream_connect_error_or_disconnect/reset_before_headers, retried and given up",
          endpointId,
        ]);
        await page.reload();
        await page.getByRole("button", { name: "Rotate secret" }).click();
        await expect(page.getByLabel("New signing secret")).toBeVisible();
        await checked("an endpoint's page");
        await page.getByRole("button", { name: "Delete endpoint" }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
        await checked("the delete dialog");

        // The other pages, and the disabled endpoint's own.
        for (const path of ["/", "/plants/new", "/import", disabledPath]) {
          await page.goto(path);
          await checked(path);
        }
      } finally {
        // The other specs start without this notice, whatever happened here.
        await sql("DELETE FROM webhook_endpoints WHERE id = $1", [disabledId]);
      }
    });

    test("the import's preview and result", async ({ page }) => {
      // Rows of every outcome, with a long name and a long reason: the widest the tables get.
      const id = 7310000 + width;
      const name = "Dracaena trifasciata 'Laurentii', the variegated snake plant with a name long enough to wrap";
      await page.goto("/import");
      await page.getByLabel("Or paste CSV text").fill(["id,name,tag", `${id},"${name}",succulent`, `${id},Other,`, `${id + 1},${"x".repeat(201)},`, `"12x",Bad id,`].join("\n"));
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("heading", { name: "Preview: nothing is stored yet" })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/import with a preview fits").toBe(true);
      await page.getByRole("button", { name: "Import 1 new plant" }).click();
      await expect(page.getByRole("heading", { name: "Import done" })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/import with a result fits").toBe(true);
    });

    test("the plants list with results, a plant's page, its delete dialog and a change made meanwhile", async ({ page, sql }) => {
      const plant = { id: 995000 + width, name: "Dracaena trifasciata, the snake plant with a long name", tag: "succulent" };
      expect((await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: plant })).status()).toBe(200);
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      await page.goto("/?q=snake+plant&sort=name");
      await expect(page.getByRole("link", { name: plant.name }).first()).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await fits(), "the list with results fits").toBe(true);
      // A plant added elsewhere meanwhile: the list counts it, with its button to show it (issue 32).
      const added = { ...plant, id: plant.id + 1, name: `${plant.name}, added elsewhere` };
      expect((await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: added })).status()).toBe(200);
      await expect(page.getByRole("button", { name: "Show it" })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await fits(), "the list with a new plant counted fits").toBe(true);
      await page.goto(`/plants/${plant.id}`);
      await expect(page.getByRole("heading", { name: plant.name })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await fits(), "a plant's page fits").toBe(true);
      await page.getByRole("button", { name: "Delete plant" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
      // Someone else's change (a new version), met by a save of a long name, on a page cut off from the change
      // feed (which would have shown the conflict at once: e2e/live-updates.spec.ts).
      await withoutLiveUpdates(page);
      await page.reload();
      await sql("UPDATE plants SET version = version + 1, name = $1 WHERE id = $2", [`${plant.name}, renamed by someone else meanwhile`, String(plant.id)]);
      await page.getByLabel("Name", { exact: true }).fill(`${plant.name}, as the person here would have it`);
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("region", { name: "Someone else changed this plant" })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await fits(), "a plant's page with a conflict fits").toBe(true);
    });

    test.describe("signed out", () => {
      test.use({ storageState: SIGNED_OUT });
      test("sign-in, API reference and not-found pages", async ({ page }) => {
        for (const path of ["/sign-in", "/docs", "/no-such-page"]) {
          await page.goto(path);
          // Swagger UI draws the reference in the browser after load: check the
          // rendered operations and schemas, not the empty frame before them.
          if (path === "/docs") {
            // The eight operations and the four webhook events.
            await expect(page.locator(".opblock")).toHaveCount(12);
            await expect(page.locator("section.models")).toBeVisible();
          }
          // At the phone's width the reference is checked by axe with every operation open and tried out, all of
          // this page and more (api-reference.spec.ts): by far the slowest page under axe, it is not checked twice.
          if (path !== "/docs" || width !== 375) await expectNoAxeViolations(page);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} fits`).toBe(true);
        }
      });
    });
  });
}

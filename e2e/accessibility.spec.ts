import { expect, expectNoAxeViolations, SIGNED_OUT, test } from "./fixtures";

// Every page, at desktop and at phone width: no axe violations, and nothing
// wider than the screen (tables scroll inside their own region instead).

const STAFF_PAGES = ["/", "/plants/new", "/tokens"];

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("staff pages", async ({ page }) => {
      // Rows in both tables and a freshly shown token: the widest each page gets.
      const plant = { id: 990000 + width, name: "Dracaena trifasciata, the snake plant with a long name", tag: "succulent" };
      expect((await page.request.post("/plants", { headers: { "sec-fetch-site": "same-origin" }, data: plant })).status()).toBe(200);
      await page.goto("/tokens");
      await page.getByLabel("Label").fill(`accessibility check at ${width}px`);
      await page.getByRole("button", { name: "Create token" }).click();
      await expect(page.getByLabel("New API token")).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/tokens with a new token fits").toBe(true);

      for (const path of STAFF_PAGES) {
        await page.goto(path);
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} fits`).toBe(true);
      }
    });

    test.describe("signed out", () => {
      test.use({ storageState: SIGNED_OUT });
      test("sign-in, API reference and not-found pages", async ({ page }) => {
        for (const path of ["/sign-in", "/docs", "/no-such-page"]) {
          await page.goto(path);
          // Swagger UI draws the reference in the browser after load: check the
          // rendered operations and schemas, not the empty frame before them.
          if (path === "/docs") {
            await expect(page.locator(".opblock")).toHaveCount(4);
            await expect(page.locator("section.models")).toBeVisible();
          }
          await expectNoAxeViolations(page);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} fits`).toBe(true);
        }
      });

      test("API reference with every operation open and tried out", async ({ page }) => {
        // Opened, the reference is a large page: axe alone takes 10s or more on a busy machine.
        test.slow();
        await page.goto("/docs");
        const openers = page.locator(".opblock-summary-control");
        await expect(openers).toHaveCount(4);
        for (const opener of await openers.all()) await opener.click();
        await expect(page.locator(".responses-table")).toHaveCount(4);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/docs, operations open, fits").toBe(true);

        // Parameter inputs and request body editors in place of the examples; responses stay.
        const tryItOut = page.getByRole("button", { name: "Try it out" });
        for (let i = 0; i < 4; i++) await tryItOut.first().click();
        await expect(page.getByRole("button", { name: "Execute" })).toHaveCount(4);
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/docs, tried out, fits").toBe(true);
      });
    });
  });
}

import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, SIGNED_OUT } from "./fixtures";

// Every page, at desktop and at phone width: no axe violations, and nothing
// wider than the screen (tables scroll inside their own region instead).

const STAFF_PAGES = ["/", "/plants/new", "/tokens"];

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("staff pages", async ({ page }) => {
      for (const path of STAFF_PAGES) {
        await page.goto(path);
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} fits`).toBe(true);
      }
    });

    test.describe("signed out", () => {
      test.use({ storageState: SIGNED_OUT });
      test("sign-in and not-found pages", async ({ page }) => {
        for (const path of ["/sign-in", "/no-such-page"]) {
          await page.goto(path);
          await expectNoAxeViolations(page);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} fits`).toBe(true);
        }
      });
    });
  });
}

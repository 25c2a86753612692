import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Issue 11: the staff app's tables and card lists fit a 375 px screen without
// scrolling sideways, with nothing cut off, however long their values; and no
// time breaks mid-value, at 1280 px or at 375 px.

// The token CLI takes a label of any length (made here as it makes them, e2e/support/store.ts); 200 characters without a space,
// and 200 in words, as long as a label gets in practice.
const UNBROKEN_LABEL = "till-sync-for-the-greenhouse-shop-".repeat(6).padEnd(200, "x");
const WORDED_LABEL = "the scanner at the till in the greenhouse shop, which also prints labels ".repeat(3).slice(0, 200);
const LONG_URL = `http://127.0.0.1:9/${"a-long-path-segment-without-a-break/".repeat(20)}?query=${"x".repeat(200)}`;
const LONG_DESCRIPTION = "ThePointOfSaleSystemInTheGreenhouseShop".repeat(6).slice(0, 200);
const LONG_ERROR = `the receiver answered 503 Service Unavailable: ${"upstream_connect_error_or_disconnect/reset_before_headers/".repeat(4)}`;

type Layout = { pageFits: boolean; spilling: string[]; brokenTimes: string[]; times: number };

/** Whether the page fits its width, which boxes spill or scroll sideways, and which times wrap or stick out of their box. */
function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const describe = (element: Element) => `${element.tagName.toLowerCase()}.${element.className} "${element.textContent?.slice(0, 40)}"`;
    // Text kept for assistive technology in a 1 px box (a card table's column headers) is not on the screen to spill.
    const visuallyHidden = (element: Element) => {
      for (let box: Element | null = element; box; box = box.parentElement) {
        const { width, height } = box.getBoundingClientRect();
        if (width <= 1 && height <= 1) return true;
      }
      return false;
    };
    const spilling = [...document.querySelectorAll("main *")].filter((element) => {
      const style = getComputedStyle(element);
      // Inline boxes have no width of their own; inputs scroll their value inside them.
      if (style.display === "inline" || style.display === "none" || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName)) return false;
      return element.scrollWidth > element.clientWidth + 1 && !visuallyHidden(element);
    });
    const times = [...document.querySelectorAll("main time")];
    const brokenTimes = times.filter((time) => {
      const box = time.parentElement!.closest("td, th, dd, p, li")!.getBoundingClientRect();
      const rects = time.getClientRects();
      return rects.length !== 1 || rects[0]!.right > box.right + 1 || rects[0]!.left < box.left - 1;
    });
    return {
      pageFits: document.documentElement.scrollWidth <= window.innerWidth,
      spilling: spilling.map(describe),
      brokenTimes: brokenTimes.map(describe),
      times: times.length,
    };
  });
}

async function expectFits(page: Page, what: string) {
  // The page as its viewer sees it once loaded: until it has hydrated, every time reads "… UTC" (the server
  // cannot know the viewer's zone: components/shared/local-time.tsx), and on a loaded machine a layout
  // measured that soon found the owner's token table wider than its frame.
  await expect(page.locator("main time").filter({ hasText: / UTC$/ }), `${what}: hydrated`).toHaveCount(0);
  const found = await layout(page);
  expect(found.pageFits, `${what}: no sideways scrolling`).toBe(true);
  expect(found.spilling, `${what}: nothing spills out of its box or scrolls inside it`).toEqual([]);
  expect(found.times, `${what}: times to check`).toBeGreaterThan(0);
  expect(found.brokenTimes, `${what}: every time on one line, inside its box`).toEqual([]);
}

test("long labels, URLs, descriptions and errors fit at 1280 px and 375 px", async ({ page, sql, store }) => {
  for (const label of [UNBROKEN_LABEL, WORDED_LABEL]) await store.createToken(label, ["plants:read"]);
  const endpointId = await store.createWebhook({ url: LONG_URL, events: ["plant.created"], description: LONG_DESCRIPTION });
  try {
    // A delivery given up after a long error: the widest a delivery's card gets. Failed and
    // unclaimed, so the delivery worker, still trying 127.0.0.1:9, leaves it as it is.
    await page.goto(`/webhooks/${endpointId}`);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("region", { name: "Recent deliveries" }).getByRole("listitem")).toHaveCount(1);
    await sql(
      "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claimed_until = NULL, attempts = 8, last_status = 503, last_error = $1, last_attempt_at = created_at WHERE endpoint_id = $2",
      [LONG_ERROR, endpointId],
    );

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/tokens");
      const row = page.getByRole("row", { name: new RegExp(UNBROKEN_LABEL.slice(0, 40)) });
      await expect(row).toContainText("plants:read");
      // A table at desktop width, a card (each value under its column's label) at phone width.
      const label = row.locator(".card-table-label").first();
      if (width === 375) await expect(label).toBeVisible();
      else await expect(label).toBeHidden();
      await expectFits(page, `/tokens at ${width}px`);

      await page.goto("/webhooks");
      await expect(page.getByRole("link", { name: LONG_URL })).toBeVisible();
      await expectFits(page, `/webhooks at ${width}px`);

      await page.goto(`/webhooks/${endpointId}`);
      await expect(page.getByText(LONG_DESCRIPTION)).toBeVisible();
      await expect(page.getByText(LONG_ERROR)).toBeVisible();
      await expectFits(page, `an endpoint's page at ${width}px`);
    }
  } finally {
    // The other specs' pages stay as they expect them.
    await store.deleteWebhook(endpointId);
  }
});

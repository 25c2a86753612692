import { existsSync } from "node:fs";

/**
 * The Chromium the browser tests drive: PLAYWRIGHT_CHROMIUM_PATH, or Debian's
 * (Playwright cannot download its own browser on every machine).
 * (Relative imports only: playwright.config.ts loads this file.)
 */
export function chromiumPath(): string {
  const chromium = process.env.PLAYWRIGHT_CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    throw new Error(
      `No Chromium at ${chromium}. Install Debian's (sudo apt-get install chromium) ` +
        "or point PLAYWRIGHT_CHROMIUM_PATH at a Chromium or Chrome binary.",
    );
  }
  return chromium;
}

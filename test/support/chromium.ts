import { existsSync } from "node:fs";

// Debian's builds (Playwright cannot download its own browser on every
// machine). The headless shell is what Playwright itself runs headless
// Chromium with: the same Blink and V8 without the desktop browser around
// them, and about a fifth less CPU for the same specs here (31 s against
// 39 s of CPU for the accessibility specs, side by side). What only the
// desktop browser does (Background Sync) needs the whole of Chromium.
// (Relative imports only: playwright.config.ts loads this file.)
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const CHROMIUM = "/usr/bin/chromium";

/** The Chromium most browser tests drive: PLAYWRIGHT_CHROMIUM_PATH, or Debian's headless shell, or Debian's Chromium. */
export function chromiumPath(): string {
  return pick([HEADLESS_SHELL, CHROMIUM]);
}

/** The whole desktop Chromium, for what the headless shell lacks: PLAYWRIGHT_CHROMIUM_PATH, or Debian's Chromium. */
export function desktopChromiumPath(): string {
  return pick([CHROMIUM]);
}

function pick(candidates: string[]): string {
  const chosen = process.env.PLAYWRIGHT_CHROMIUM_PATH;
  const chromium = chosen || candidates.find((candidate) => existsSync(candidate));
  if (!chromium || !existsSync(chromium)) {
    throw new Error(
      `No Chromium at ${chosen || candidates.join(" or ")}. Install Debian's (sudo apt-get install chromium chromium-headless-shell) ` +
        "or point PLAYWRIGHT_CHROMIUM_PATH at a Chromium or Chrome binary.",
    );
  }
  return chromium;
}

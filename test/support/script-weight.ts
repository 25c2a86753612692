import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { pageAssetPaths } from "../../lib/client/offline/page-assets";

// The JavaScript a browser downloads to open a page, as a real one downloads
// it (npm run bench:page-weight prints it, e2e/page-weight.spec.ts holds each
// staff page to the budget). Every script the page fetches until the network
// is quiet, raw and gzipped (level 9). Not counted: what loads only when
// someone acts (a form's checks on the first keystroke, saving, signing out),
// and Next's `nomodule` polyfills, which a browser that runs module scripts
// (every one Next.js supports) never fetches.
// (Relative imports only: the Playwright specs load this file.)

/** Gzipped script a staff page may load (issue 20): the pages are used on shop tablets and phones over shop Wi-Fi. */
export const PAGE_SCRIPT_BUDGET = 180 * 1024;

export type ScriptWeight = {
  scripts: number;
  raw: number;
  gzip: number;
  /** Of `gzip`, the scripts the page's HTML does not name: fetched by itself after it loaded (a dynamic import()), unasked. */
  laterGzip: number;
};

/** Opens `url` in `page` (best in a fresh context: an empty cache, as on a first visit) and weighs every script it fetches. */
export async function weighPageScripts(page: Page, url: string): Promise<ScriptWeight> {
  const scripts: { url: string; body: Promise<Buffer> }[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push({ url: response.url(), body: response.body() });
  });
  const document = await page.goto(url, { waitUntil: "networkidle" });
  if (document?.status() !== 200) throw new Error(`${url} answered ${document?.status()}`);
  const named = new Set(pageAssetPaths(await document.text()));
  const weight: ScriptWeight = { scripts: scripts.length, raw: 0, gzip: 0, laterGzip: 0 };
  for (const script of scripts) {
    const body = await script.body;
    const gzip = gzipSync(body, { level: 9 }).length;
    weight.raw += body.length;
    weight.gzip += gzip;
    if (!named.has(new URL(script.url).pathname)) weight.laterGzip += gzip;
  }
  return weight;
}

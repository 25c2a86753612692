import { gzipSync } from "node:zlib";
import type { Page, Request } from "@playwright/test";
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
  // Until the network is quiet but for the page's event stream, which stays open as long as the page is
  // (Playwright's own "networkidle" counts it, so it would never come).
  const document = await loadUntilQuiet(page, url);
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

/** How long nothing but an event stream is in flight before a page counts as loaded. */
const QUIET_MS = 500;

/** Opens `url` and waits until no request but an event stream has been in flight for QUIET_MS; answers the document's response. */
async function loadUntilQuiet(page: Page, url: string) {
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const track = (request: Request, open: boolean) => {
    if (request.headers().accept === "text/event-stream") return;
    if (open) inFlight.add(request);
    else inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on("request", (request) => track(request, true));
  page.on("requestfinished", (request) => track(request, false));
  page.on("requestfailed", (request) => track(request, false));
  const document = await page.goto(url, { waitUntil: "load" });
  while (inFlight.size > 0 || Date.now() - lastChange < QUIET_MS) await page.waitForTimeout(100);
  return document;
}

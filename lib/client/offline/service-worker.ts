import { pageAssetClosure } from "@/lib/client/offline/page-assets";
import { announceSending, SEND_WAITING_PLANTS_TAG, sendWaitingPlants } from "@/lib/client/offline/send-waiting-plants";
import { waitingPlants } from "@/lib/client/offline/waiting-plants";

// The app's service worker, served at /sw.js (app/sw.js/route.ts bundles it
// at build time). Type-checked against the worker's own globals
// (tsconfig.service-worker.json), not the window's.
//
// What it keeps, and why so little: pages are rendered per request, each
// with its own CSP nonce, and show a signed-in person's data, so only the
// pages that must work offline are kept (OFFLINE_PAGES), each as last
// served to this browser, network first: with a connection the person
// always gets the page fresh, and without one the page as it last was. A
// kept page is served with the very headers it came with, so its nonce and
// its CSP still match. The static files such a page names are kept beside
// it, with the chunks its scripts load only when needed (issue 20), and
// nothing else: no API answer, no other page. Signing out forgets them all.

declare const self: ServiceWorkerGlobalScope;

/** Background Sync's event (Chromium only; not in TypeScript's lib). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/** The pages that work offline once visited: the app shell comes with each. */
const OFFLINE_PAGES = ["/plants/new"];

// Versioned names: a worker that keeps things differently starts afresh (activate deletes the others).
const CACHE_PREFIX = "plant-store-";
const PAGES = `${CACHE_PREFIX}pages-v1`;
const ASSETS = `${CACHE_PREFIX}assets-v1`;

self.addEventListener("install", (event) => {
  // The page that registered this worker was loaded before it: keep the offline pages now, so the very
  // first visit is enough. Signed out, or offline, keeps nothing, and installing still succeeds.
  event.waitUntil(keepOfflinePages().catch(() => undefined));
  void self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const stale = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX) && name !== PAGES && name !== ASSETS);
      await Promise.all(stale.map((name) => caches.delete(name)));
      // Pages open now send their next requests through this worker.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // next-auth's sign-out: the next person at this browser must not find the last one's pages.
  if (request.method === "POST" && url.pathname === "/api/auth/signout") {
    event.waitUntil(forgetPages());
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && OFFLINE_PAGES.includes(url.pathname)) {
    event.respondWith(networkFirst(event, url.pathname));
    return;
  }
  if (url.pathname.startsWith("/_next/static/")) event.respondWith(keptOrNetwork(request));
  // Anything else (the API, other pages, RSC requests) goes to the network untouched, and is never kept.
});

self.addEventListener("sync", (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== SEND_WAITING_PLANTS_TAG) return;
  sync.waitUntil(sendInBackground());
});

async function sendInBackground(): Promise<void> {
  const summary = await sendWaitingPlants(waitingPlants);
  announceSending(summary);
  // Rejecting asks the browser to fire the sync again later; an ended session waits for the person instead.
  if (summary.stopped === "unreachable" || summary.stopped === "server") throw new Error(`sending waiting plants stopped: ${summary.stopped}`);
}

/** The page from the network, kept for later; without a network, the page as last kept. */
async function networkFirst(event: FetchEvent, path: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    // caches.match, not caches.open: looking must not make a cache that signing out deleted.
    const kept = await caches.match(path, { cacheName: PAGES, ignoreSearch: true, ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
  // A redirect (to sign-in: the session ended) means the kept page belongs to no one signed in here.
  if (response.type === "opaqueredirect" || response.redirected) event.waitUntil(forgetPages());
  else if (isPage(response)) event.waitUntil(keepPage(path, response.clone()).catch(() => undefined));
  return response;
}

async function keptOrNetwork(request: Request): Promise<Response> {
  const kept = await caches.match(request, { cacheName: ASSETS, ignoreSearch: true, ignoreVary: true });
  return kept ?? fetch(request);
}

function isPage(response: Response): boolean {
  return response.status === 200 && response.type === "basic" && (response.headers.get("content-type") ?? "").startsWith("text/html");
}

async function keepOfflinePages(): Promise<void> {
  for (const path of OFFLINE_PAGES) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (!response.redirected && isPage(response)) await keepPage(path, response);
  }
}

/**
 * Keeps a page and every static file it may load, the files first, so that a
 * kept page works offline in full; then lets go of the files no kept page
 * needs any more (an older build's).
 */
async function keepPage(path: string, response: Response): Promise<void> {
  const html = await response.clone().text();
  const assets = await caches.open(ASSETS);
  await pageAssetClosure(html, async (asset) => {
    const kept = await assets.match(asset);
    if (kept) return kept.text();
    const file = await fetch(asset, { credentials: "same-origin" });
    if (!file.ok) return undefined;
    await assets.put(asset, file.clone());
    return file.text();
  });
  await (await caches.open(PAGES)).put(path, response);
  await letGoOfUnnamedAssets();
}

async function letGoOfUnnamedAssets(): Promise<void> {
  if (!(await caches.has(PAGES))) return;
  const pages = await caches.open(PAGES);
  const assets = await caches.open(ASSETS);
  const needed = new Set<string>();
  for (const page of await pages.keys()) {
    const kept = await pages.match(page);
    if (!kept) continue;
    const files = await pageAssetClosure(await kept.text(), async (asset) => (await assets.match(asset))?.text());
    for (const asset of files) needed.add(asset);
  }
  for (const asset of await assets.keys()) {
    if (!needed.has(new URL(asset.url).pathname)) await assets.delete(asset);
  }
}

async function forgetPages(): Promise<void> {
  await Promise.all([caches.delete(PAGES), caches.delete(ASSETS)]);
}

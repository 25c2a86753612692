// Registers the app's service worker (/sw.js: lib/client/offline/service-worker.ts),
// which keeps the offline pages and sends waiting plants on Background Sync.
// Production builds only: the development server builds no worker, and a
// worker serving kept pages would hide the changes being made.

export function registerServiceWorker(): void {
  if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
  // updateViaCache "none": a new worker is noticed on the next navigation, whatever caches say.
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {
    // Private windows and some browsers refuse: the app works as before, online only.
  });
}

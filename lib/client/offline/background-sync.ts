import { SEND_WAITING_PLANTS_TAG } from "@/lib/client/offline/send-waiting-plants";

// Asks the browser to wake the service worker to send the waiting plants once
// it has a connection, even if every page of the app is closed by then
// (Background Sync, Chromium only). Elsewhere, and as well, the pages send
// them when they load and when the browser comes back online.

type SyncManager = { register(tag: string): Promise<void> };

export async function askForBackgroundSync(): Promise<void> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  try {
    const registration = (await navigator.serviceWorker.getRegistration()) as (ServiceWorkerRegistration & { sync?: SyncManager }) | undefined;
    await registration?.sync?.register(SEND_WAITING_PLANTS_TAG);
  } catch {
    // No worker yet, or sync refused (a permission): the pages' own sending remains.
  }
}

import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/**
 * Whether this render runs in the browser after hydration: false in the
 * server's HTML (useSyncExternalStore's server snapshot), true once React runs.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeToNothing, inBrowser, onServer);
}

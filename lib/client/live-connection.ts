// Whether this page follows the store's changes (issue 44), for the notice
// every staff page shows (components/shared/live-connection-notice.tsx): each
// stream the page follows (lib/client/event-source.ts) says how it stands, and
// the page is "paused" once one of them has been unable to follow for
// PAUSED_AFTER_MS, long enough that a reconnect after a server's restart or
// a worker's replacement passes unseen, and "stopped" once one of them cannot
// catch up at all (the page must be read again).

/** How one stream stands: following, trying to reconnect, unable to go on, or closed while the page is hidden. */
export type StreamState = "following" | "reconnecting" | "stopped" | "resting";

/** How the page stands, as its notice says it: "idle" when it holds no stream (it follows nothing, or is hidden). */
export type LiveConnection = "idle" | "following" | "paused" | "stopped";

/** How long a stream may be reconnecting before the page says its live updates are paused. */
export const PAUSED_AFTER_MS = 5_000;

type Tracked = { state: StreamState; since: number };

const streams = new Set<Tracked>();
const listeners = new Set<() => void>();
let current: LiveConnection = "idle";
let due: ReturnType<typeof setTimeout> | undefined;

/** One stream's say in the page's state, until `remove` is called (the stream is closed for good). */
export type TrackedStream = { set(state: StreamState): void; remove(): void };

export function trackStream(): TrackedStream {
  const tracked: Tracked = { state: "resting", since: Date.now() };
  streams.add(tracked);
  return {
    set(state) {
      if (state === tracked.state) return;
      tracked.state = state;
      tracked.since = Date.now();
      update();
    },
    remove() {
      streams.delete(tracked);
      update();
    },
  };
}

/** The page's state now (useSyncExternalStore's snapshot). */
export function liveConnection(): LiveConnection {
  return current;
}

/** Calls `listener` whenever the page's state changes; answers the function that stops it. */
export function subscribeLiveConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function update(): void {
  clearTimeout(due);
  due = undefined;
  const now = Date.now();
  const states = [...streams].map(({ state, since }) => ({ state, late: state === "reconnecting" && now - since >= PAUSED_AFTER_MS, since }));
  const next: LiveConnection = states.some(({ state }) => state === "stopped")
    ? "stopped"
    : states.some(({ late }) => late)
      ? "paused"
      : states.some(({ state }) => state === "following" || state === "reconnecting")
        ? "following"
        : "idle";
  // A stream reconnecting now says so once it has been for PAUSED_AFTER_MS, unless it is back by then.
  const soonest = Math.min(...states.filter(({ state, late }) => state === "reconnecting" && !late).map(({ since }) => since + PAUSED_AFTER_MS - now));
  if (next === "following" && soonest !== Infinity) due = setTimeout(update, soonest);
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

// How long a staff page waits before it opens its event stream again (issue
// 44): near the server's `retry:` the first time, doubling with each failure
// in a row up to about 30 s, never sooner than a Retry-After the server gave.
// "Equal jitter" (half the wait fixed, half random) spreads the pages of a
// whole shop floor that lost the same server, so they do not all come back in
// the same instant, while none waits much less than the server asked.

/** The longest wait between two attempts. */
export const LONGEST_RECONNECT_MS = 30_000;

/**
 * The wait before the next attempt, in ms: `failures` in a row so far (0 for the first reconnect),
 * from `retryMs` (the stream's `retry:`), at least `retryAfterMs` (the answer's Retry-After).
 */
export function reconnectDelay(failures: number, retryMs: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_RECONNECT_MS, retryMs * 2 ** Math.min(failures, 16));
  const jittered = ceiling / 2 + (random() * ceiling) / 2;
  return Math.round(Math.min(LONGEST_RECONNECT_MS, Math.max(jittered, retryAfterMs)));
}

/** An answer's Retry-After (RFC 9110 section 10.2.3: seconds, or an HTTP date) in ms from `now`; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 0;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}

// When a failed delivery is tried again (issue 9). The schedule
// (WEBHOOK_RETRY_SCHEDULE) gives the delay before each attempt; each delay is
// spread by ±20 % so that deliveries that failed together (a receiver down for
// a minute) do not all come back in the same instant, as Svix and Stripe
// spread theirs.
//
// A receiver may ask for more time with Retry-After (RFC 9110 section
// 10.2.3), typically on 429 or 503; it is honoured, within two limits:
// - never sooner than the schedule's delay: the schedule is our backoff, and a
//   "Retry-After: 0" must not turn it into a tight loop;
// - never later than RETRY_AFTER_CAP_MS: one attempt may be put off by a day at
//   most, so a receiver cannot park deliveries indefinitely. The schedule still
//   bounds the number of attempts.

export const RETRY_JITTER = 0.2;
export const RETRY_AFTER_CAP_MS = 24 * 60 * 60 * 1000;

/**
 * A Retry-After value as milliseconds from `now`: delay-seconds or an
 * HTTP-date (a date already past is 0). Undefined when absent or unreadable,
 * as if the receiver had not sent it.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date has letters (the day and month names); Date.parse alone would read "-1" or "12" as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The delay before the next attempt, after `attempts` attempts have failed;
 * null when the schedule has no attempt left (the delivery has failed).
 * `random` answers a number in [0, 1), as Math.random does.
 */
export function retryDelayMs({
  schedule,
  attempts,
  retryAfterMs,
  random = Math.random,
}: {
  schedule: readonly number[];
  attempts: number;
  retryAfterMs?: number;
  random?: () => number;
}): number | null {
  const scheduled = schedule[attempts];
  if (scheduled === undefined) return null;
  const jittered = scheduled * (1 + RETRY_JITTER * (2 * random() - 1));
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, RETRY_AFTER_CAP_MS);
  return Math.round(Math.max(jittered, asked));
}

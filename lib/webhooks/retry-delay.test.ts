import { describe, expect, it } from "vitest";
import { parseRetryAfter, RETRY_AFTER_CAP_MS, retryDelayMs } from "@/lib/webhooks/retry-delay";

const SCHEDULE = [0, 5_000, 300_000, 1_800_000];
const NOW = Date.parse("2026-11-24T12:00:00Z");

describe("retryDelayMs", () => {
  it("takes the schedule's delay for the next attempt, spread by at most ±20 %", () => {
    for (const [attempts, scheduled] of [[1, 5_000], [2, 300_000], [3, 1_800_000]] as const) {
      expect(retryDelayMs({ schedule: SCHEDULE, attempts, random: () => 0 })).toBe(scheduled * 0.8);
      expect(retryDelayMs({ schedule: SCHEDULE, attempts, random: () => 0.5 })).toBe(scheduled);
      // random() is below 1: the top of the range is approached, never passed.
      expect(retryDelayMs({ schedule: SCHEDULE, attempts, random: () => 0.999999 })).toBeLessThanOrEqual(scheduled * 1.2);
      for (let draw = 0; draw < 200; draw++) {
        const delay = retryDelayMs({ schedule: SCHEDULE, attempts })!;
        expect(delay).toBeGreaterThanOrEqual(scheduled * 0.8);
        expect(delay).toBeLessThanOrEqual(scheduled * 1.2);
      }
    }
  });

  it("keeps a zero delay at zero", () => {
    expect(retryDelayMs({ schedule: [0, 0], attempts: 1, random: () => 0.99 })).toBe(0);
  });

  it("answers null once the schedule is spent", () => {
    expect(retryDelayMs({ schedule: SCHEDULE, attempts: 4 })).toBeNull();
    expect(retryDelayMs({ schedule: SCHEDULE, attempts: 4, retryAfterMs: 1_000 })).toBeNull();
  });

  it("waits as long as Retry-After asks when that is longer than the schedule, up to a day", () => {
    expect(retryDelayMs({ schedule: SCHEDULE, attempts: 1, retryAfterMs: 60_000, random: () => 0.5 })).toBe(60_000);
    expect(retryDelayMs({ schedule: SCHEDULE, attempts: 1, retryAfterMs: 7 * RETRY_AFTER_CAP_MS, random: () => 0.5 })).toBe(RETRY_AFTER_CAP_MS);
  });

  it("never retries sooner than the schedule says, whatever Retry-After asks", () => {
    expect(retryDelayMs({ schedule: SCHEDULE, attempts: 2, retryAfterMs: 0, random: () => 0.5 })).toBe(300_000);
    expect(retryDelayMs({ schedule: SCHEDULE, attempts: 2, retryAfterMs: 1_000, random: () => 0 })).toBe(240_000);
  });
});

describe("parseRetryAfter", () => {
  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    ["Tue, 24 Nov 2026 12:00:30 GMT", 30_000],
    // RFC 9110 asks recipients to accept the obsolete date formats too.
    ["Tuesday, 24-Nov-26 12:01:00 GMT", 60_000],
    ["Tue Nov 24 12:00:05 2026", 5_000],
    ["Tue, 24 Nov 2026 11:00:00 GMT", 0],
  ])("reads %j as %i ms", (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it.each([undefined, "", "-1", "1.5", "12abc", "soon", "0x10"])("ignores %j", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

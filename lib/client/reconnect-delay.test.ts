import { describe, expect, it } from "vitest";
import { LONGEST_RECONNECT_MS, reconnectDelay, retryAfterMs } from "@/lib/client/reconnect-delay";

describe("reconnectDelay", () => {
  it("starts near the server's retry:, doubles with each failure and stays within about 30 s", () => {
    const least = (failures: number) => reconnectDelay(failures, 2_000, 0, () => 0);
    const most = (failures: number) => reconnectDelay(failures, 2_000, 0, () => 1);
    expect([0, 1, 2, 3, 4, 5, 60].map(least)).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]);
    expect([0, 1, 2, 3, 4, 5, 60].map(most)).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("waits at least what Retry-After asks, but never past the longest wait", () => {
    expect(reconnectDelay(0, 2_000, 5_000, () => 0)).toBe(5_000);
    expect(reconnectDelay(0, 2_000, 3_600_000, () => 0)).toBe(LONGEST_RECONNECT_MS);
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, and nothing else", () => {
    const now = Date.parse("Mon, 07 Dec 2026 10:00:00 GMT");
    expect(retryAfterMs("3", now)).toBe(3_000);
    expect(retryAfterMs("Mon, 07 Dec 2026 10:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("Mon, 07 Dec 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBe(0);
    expect(retryAfterMs("-1", now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(0);
  });
});

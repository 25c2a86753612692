import { describe, expect, it } from "vitest";
import { counterAdvances } from "@/lib/auth/second-factors/passkey-counter";

describe("a passkey's signature counter", () => {
  it("accepts a counter that went up, and 0 after 0 from authenticators that keep none", () => {
    expect(counterAdvances(0n, 0n)).toBe(true);
    expect(counterAdvances(0n, 1n)).toBe(true);
    expect(counterAdvances(41n, 42n)).toBe(true);
    expect(counterAdvances(41n, 4_294_967_295n)).toBe(true);
  });

  it("refuses a counter that stayed or went back once either side is nonzero: the mark of a cloned authenticator", () => {
    expect(counterAdvances(42n, 42n)).toBe(false);
    expect(counterAdvances(42n, 41n)).toBe(false);
    expect(counterAdvances(42n, 0n)).toBe(false);
  });
});

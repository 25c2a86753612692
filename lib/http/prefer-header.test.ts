import { describe, expect, it } from "vitest";
import { prefersExactCount, readPreferences } from "@/lib/http/prefer-header";

function request(...prefer: string[]): Request {
  const headers = new Headers();
  for (const value of prefer) headers.append("prefer", value);
  return new Request("http://localhost/plants", { headers });
}

describe("Prefer (RFC 7240)", () => {
  it("reads each preference once, by its lower-case name, value unquoted", () => {
    expect([...readPreferences('respond-async, wait=10, Count=exact; x=1, return="minimal", count=planned')]).toEqual([
      ["respond-async", ""],
      ["wait", "10"],
      ["count", "exact"],
      ["return", "minimal"],
    ]);
    expect([...readPreferences(null)]).toEqual([]);
    expect([...readPreferences('bad name=1, ok=1, worse="unterminated')]).toEqual([["ok", "1"]]);
  });

  it.each([
    [["count=exact"], true],
    [["COUNT=EXACT"], true],
    [['count="exact"'], true],
    [["return=minimal", "count=exact"], true],
    [["return=minimal, count=exact;foo"], true],
    [[], false],
    [["count=planned"], false],
    [["count=planned, count=exact"], false],
    [["count"], false],
    [["counting=exact"], false],
  ])("Prefer %j asks for an exact count: %s", (prefer, asked) => {
    expect(prefersExactCount(request(...prefer))).toBe(asked);
  });
});

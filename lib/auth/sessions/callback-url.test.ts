import { describe, expect, it } from "vitest";
import { safeCallbackPath, signInPath } from "@/lib/auth/sessions/callback-url";

describe("safeCallbackPath", () => {
  it.each([
    ["/tokens", "/tokens"],
    ["/?page=2", "/?page=2"],
    ["/plants/new#top", "/plants/new#top"],
  ])("keeps the path %s", (value, expected) => {
    expect(safeCallbackPath(value)).toBe(expected);
  });

  it.each([
    ["an absolute URL", "https://evil.example/"],
    ["a scheme-relative URL", "//evil.example"],
    ["a backslash that browsers read as a slash", "/\\evil.example"],
    ["a tab that URL parsers drop", "/\t/evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "tokens"],
    ["an empty string", ""],
    ["a repeated parameter", ["/a", "/b"]],
    ["nothing", undefined],
  ])("sends %s home", (_, value) => {
    expect(safeCallbackPath(value)).toBe("/");
  });
});

describe("signInPath", () => {
  it("carries the way back, encoded", () => {
    expect(signInPath("/plants/new")).toBe("/sign-in?callbackUrl=%2Fplants%2Fnew");
    expect(signInPath("/")).toBe("/sign-in");
  });
});

import { describe, expect, it } from "vitest";
import { exactInteger, parseExactJson, stringifyExactJson } from "@/lib/json/exact-json";

describe("exactInteger", () => {
  it.each([
    ["0", 0n],
    ["-0", 0n],
    ["42", 42n],
    ["9007199254740993", 9007199254740993n],
    ["9223372036854775807", 9223372036854775807n],
    ["-9223372036854775808", -9223372036854775808n],
    ["9223372036854775808", 9223372036854775808n],
    ["1.0", 1n],
    ["1.500e1", 15n],
    ["1e3", 1000n],
    ["1E+3", 1000n],
    ["100e-2", 1n],
    ["0.5e1", 5n],
    ["0e999999999999", 0n],
    ["1e39", 10n ** 39n],
  ])("%s is the integer %s", (literal, expected) => {
    expect(exactInteger(literal)).toBe(expected);
  });

  it.each(["1.5", "1e-1", "0.1", "12.34e1", "1e41", "1e999999999", "1e-999999999", "9".repeat(41), "abc", ""])(
    "%s is not an exact integer (or is too large to matter)",
    (literal) => {
      expect(exactInteger(literal)).toBeUndefined();
    },
  );
});

describe("parseExactJson", () => {
  it("keeps ids above 2^53 exact, where JSON.parse rounds them", () => {
    const text = '{"id":9007199254740993,"big":9223372036854775807}';
    expect(JSON.parse(text).id).toBe(9007199254740992);
    expect(parseExactJson(text)).toEqual({ id: 9007199254740993n, big: 9223372036854775807n });
  });

  it("leaves non-integers as numbers", () => {
    expect(parseExactJson("[1.5, 2.25e1, -0.5]")).toEqual([1.5, 22.5, -0.5]);
  });

  it("keeps __proto__ as an own key instead of setting the prototype", () => {
    const value = parseExactJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['{"a":1,"a":2}', "{bad", "[1,]", "1 2", "", "NaN", "'x'"])("rejects %j", (text) => {
    expect(() => parseExactJson(text)).toThrow(SyntaxError);
  });
});

describe("stringifyExactJson", () => {
  it("writes bigints as exact integers and omits undefined fields", () => {
    expect(stringifyExactJson({ id: 9223372036854775807n, name: "Fern", tag: undefined })).toBe('{"id":9223372036854775807,"name":"Fern"}');
  });

  it("round-trips with parseExactJson", () => {
    const value = { id: -9223372036854775808n, name: "Ficus \u{1F331}", tag: "\u00e9" };
    expect(parseExactJson(stringifyExactJson(value))).toEqual(value);
  });
});

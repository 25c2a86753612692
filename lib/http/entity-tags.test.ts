import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { ifMatchCondition, ifNoneMatchNames, plantEtag } from "@/lib/http/entity-tags";

// If-Match and If-None-Match as RFC 9110 writes them (sections 8.8.3, 13.1.1
// and 13.1.2), on requests made here; the HTTP suite sends them to the app.

const version = { version: 3, createdAt: new Date(1_763_900_000_123) };
const etag = plantEtag(version);

const withHeader = (name: string, value: string) => new Request("http://plants.test/plants/1", { headers: { [name]: value } });

describe("plantEtag", () => {
  it("is the version and the creation time in base 36, quoted: strong", () => {
    expect(etag).toBe(`"3.${(1_763_900_000_123).toString(36)}"`);
  });
});

describe("ifMatchCondition", () => {
  it("accepts any version without If-Match, and for *", () => {
    expect(ifMatchCondition(new Request("http://plants.test/"))).toBeUndefined();
    expect(ifMatchCondition(withHeader("if-match", "*"))).toBeUndefined();
    expect(ifMatchCondition(withHeader("if-match", " * "))).toBeUndefined();
  });

  it.each([
    ['"1.a"', ["1.a"]],
    ['"1.a", "2.b"', ["1.a", "2.b"]],
    ['"1.a","2.b" ,\t"3.c"', ["1.a", "2.b", "3.c"]],
    [', "1.a",, "2.b" ,', ["1.a", "2.b"]],
    ['""', [""]],
    // Strong comparison: a weak tag matches nothing, so it accepts no version.
    ['W/"1.a", "2.b"', ["2.b"]],
    ['W/"1.a"', []],
  ])("reads %s as the versions %o", (field, tags) => {
    expect(ifMatchCondition(withHeader("if-match", field))).toEqual(tags);
  });

  it.each(["1.a", '"1.a', '"1.a" "2.b"', 'w/"1.a"', '"1.a", *', '"a"b"', ",", '"1 a"'])("refuses %s with a 400 naming If-Match", (field) => {
    let thrown: unknown;
    try {
      ifMatchCondition(withHeader("if-match", field));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, extra: { details: [{ field: "If-Match" }] } });
  });
});

describe("ifNoneMatchNames", () => {
  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [`"0.x", ${etag}`, true],
    ["*", true],
    [etag.replace('"3.', '"2.'), false],
    [plantEtag({ version: 3, createdAt: new Date(1_763_900_000_124) }), false],
  ])("%s names the current version: %s", (field, names) => {
    expect(ifNoneMatchNames(withHeader("if-none-match", field), version)).toBe(names);
  });

  it("names nothing when absent, and refuses a malformed field", () => {
    expect(ifNoneMatchNames(new Request("http://plants.test/"), version)).toBe(false);
    expect(() => ifNoneMatchNames(withHeader("if-none-match", "3.x"), version)).toThrow(/If-None-Match must be/);
  });
});

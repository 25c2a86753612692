import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { plantEtag, readEntityTags } from "@/lib/http/entity-tags";

// If-Match and If-None-Match read as RFC 9110 writes them (sections 8.8.3,
// 13.1.1 and 13.1.2), on requests made here; preconditions.test.ts evaluates
// them, and the HTTP suite sends them to the app.

const version = { version: 3, createdAt: new Date(1_763_900_000_123) };

const withHeader = (name: string, value: string) => new Request("http://plants.test/plants/1", { headers: { [name]: value } });

describe("plantEtag", () => {
  it("is the version and the creation time in base 36, quoted: strong", () => {
    expect(plantEtag(version)).toBe(`"3.${(1_763_900_000_123).toString(36)}"`);
  });
});

describe.each(["If-Match", "If-None-Match"] as const)("readEntityTags(%s)", (name) => {
  it("is undefined when absent, and * for *", () => {
    expect(readEntityTags(new Request("http://plants.test/"), name)).toBeUndefined();
    expect(readEntityTags(withHeader(name, "*"), name)).toBe("*");
    expect(readEntityTags(withHeader(name, " * "), name)).toBe("*");
  });

  it.each([
    ['"1.a"', [{ weak: false, opaque: "1.a" }]],
    ['"1.a", "2.b"', [{ weak: false, opaque: "1.a" }, { weak: false, opaque: "2.b" }]],
    ['"1.a","2.b" ,\t"3.c"', [{ weak: false, opaque: "1.a" }, { weak: false, opaque: "2.b" }, { weak: false, opaque: "3.c" }]],
    [', "1.a",, "2.b" ,', [{ weak: false, opaque: "1.a" }, { weak: false, opaque: "2.b" }]],
    ['""', [{ weak: false, opaque: "" }]],
    ['W/"1.a", "2.b"', [{ weak: true, opaque: "1.a" }, { weak: false, opaque: "2.b" }]],
  ])("reads %s as %o", (field, tags) => {
    expect(readEntityTags(withHeader(name, field), name)).toEqual(tags);
  });

  it.each(["1.a", '"1.a', '"1.a" "2.b"', 'w/"1.a"', '"1.a", *', '"a"b"', ",", '"1 a"'])("refuses %s with a 400 naming the field", (field) => {
    let thrown: unknown;
    try {
      readEntityTags(withHeader(name, field), name);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, message: expect.stringMatching(new RegExp(`^${name} must be`)), extra: { details: [{ field: name }] } });
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { evaluatePreconditions, readPreconditions } from "@/lib/http/preconditions";

// RFC 9110 section 13.2.2's evaluation, on requests made here, against a
// resource at "3.x" (issue 20). The same table runs over HTTP against the
// built app, on both engines: test/http/preconditions.test.ts.

const current = { etag: '"3.x"', name: "plant 7" };

function outcome(method: string, headers: Record<string, string>): string {
  const preconditions = readPreconditions(new Request("http://plants.test/plants/7", { method, headers }));
  if (!preconditions) return "no conditions";
  try {
    return evaluatePreconditions(preconditions, current);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.extra.headers).toEqual({ etag: '"3.x"' });
    return `${error.status}: ${error.message}`;
  }
}

const CHANGED = '412: plant 7 has changed since the version named: it is now at "3.x"';

describe.each(["GET", "HEAD"])("%s", (method) => {
  it.each([
    [{}, "no conditions"],
    [{ "if-match": '"3.x"' }, "proceed"],
    [{ "if-match": '"1.a", "3.x"' }, "proceed"],
    [{ "if-match": "*" }, "proceed"],
    [{ "if-match": '"2.x"' }, CHANGED],
    [{ "if-match": 'W/"3.x"' }, CHANGED],
    [{ "if-none-match": '"3.x"' }, "not modified"],
    [{ "if-none-match": 'W/"3.x"' }, "not modified"],
    [{ "if-none-match": "*" }, "not modified"],
    [{ "if-none-match": '"2.x"' }, "proceed"],
    // If-Match first: a false one is a 412 whatever If-None-Match says.
    [{ "if-match": '"2.x"', "if-none-match": '"3.x"' }, CHANGED],
    [{ "if-match": '"3.x"', "if-none-match": '"3.x"' }, "not modified"],
    [{ "if-match": '"3.x"', "if-none-match": '"2.x"' }, "proceed"],
  ])("%o: %s", (headers, expected) => {
    expect(outcome(method, headers)).toBe(expected);
  });
});

describe.each(["PATCH", "DELETE"])("%s", (method) => {
  it.each([
    [{ "if-match": '"3.x"' }, "proceed"],
    [{ "if-match": "*" }, "proceed"],
    [{ "if-match": '"2.x"' }, `${CHANGED}; nothing was changed`],
    [{ "if-match": 'W/"3.x"' }, `${CHANGED}; nothing was changed`],
    [{ "if-none-match": '"3.x"' }, '412: plant 7 is at "3.x", a version If-None-Match names; nothing was changed'],
    [{ "if-none-match": 'W/"3.x"' }, '412: plant 7 is at "3.x", a version If-None-Match names; nothing was changed'],
    [{ "if-none-match": "*" }, "412: plant 7 exists, and If-None-Match: * allows this only where it does not; nothing was changed"],
    [{ "if-none-match": '"2.x"' }, "proceed"],
    [{ "if-match": '"2.x"', "if-none-match": '"3.x"' }, `${CHANGED}; nothing was changed`],
    [{ "if-match": '"3.x"', "if-none-match": '"2.x"' }, "proceed"],
  ])("%o: %s", (headers, expected) => {
    expect(outcome(method, headers)).toBe(expected);
  });
});

describe("the fields ignored", () => {
  it("reads no condition from the date fields or If-Range: no Last-Modified is sent, and no ranges served", () => {
    const dated = { "if-unmodified-since": "Thu, 01 Jan 1970 00:00:00 GMT", "if-modified-since": "Thu, 01 Jan 2099 00:00:00 GMT", "if-range": '"2.x"' };
    expect(outcome("DELETE", dated)).toBe("no conditions");
    expect(outcome("GET", { ...dated, "if-match": '"3.x"' })).toBe("proceed");
  });
});

describe("a weak current ETag", () => {
  it("never passes If-Match (strong comparison), but If-None-Match names it (weak comparison)", () => {
    const weak = { etag: 'W/"3.x"', name: "page 1" };
    const request = (headers: Record<string, string>) => readPreconditions(new Request("http://plants.test/", { headers }))!;
    expect(() => evaluatePreconditions(request({ "if-match": 'W/"3.x"' }), weak)).toThrow(ApiError);
    expect(evaluatePreconditions(request({ "if-none-match": '"3.x"' }), weak)).toBe("not modified");
  });
});

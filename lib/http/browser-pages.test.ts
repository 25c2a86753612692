import { describe, expect, it } from "vitest";
import { apiResource, plantListPageFor, wantsPage } from "@/lib/http/browser-pages";

// What Chromium sends when it loads a page, and what a fetch() sends by default.
const BROWSER_PAGE = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

function request(headers: Record<string, string>, method = "GET"): Request {
  return new Request("http://plants.test/plants/7", { method, headers });
}

describe("apiResource", () => {
  it.each([
    ["/plants", { kind: "plants" }],
    ["/plants/9007199254740993", { kind: "plant", segment: "9007199254740993" }],
    ["/plants/007", { kind: "plant", segment: "007" }],
    ["/plants/%20", { kind: "plant", segment: "%20" }],
    ["/plants/new", undefined],
    ["/plants/batch", { kind: "operation" }],
    ["/plants/7/x", undefined],
    ["/plants.csv", undefined],
    ["/", undefined],
  ])("%s -> %j", (path, resource) => {
    expect(apiResource(path)).toEqual(resource);
  });
});

describe("wantsPage", () => {
  it.each([
    ["a browser loading a page", { accept: BROWSER_PAGE }, true],
    ["text/html alone", { accept: "text/html" }, true],
    ["HTML weighed above everything else", { accept: "text/html, */*;q=0.1" }, true],
    ["no Accept (curl, most clients)", {}, false],
    ["*/*", { accept: "*/*" }, false],
    ["application/json", { accept: "application/json" }, false],
    ["JSON weighed above HTML", { accept: "application/json, text/html;q=0.9" }, false],
    ["CSV", { accept: "text/csv" }, false],
    ["a page's load with a bearer token", { accept: BROWSER_PAGE, authorization: "Bearer abc" }, false],
  ])("%s -> %s", (_, headers, expected) => {
    expect(wantsPage(request(headers))).toBe(expected);
  });

  it("is never a write, whatever it accepts", () => {
    for (const method of ["POST", "PATCH", "DELETE", "OPTIONS"]) expect(wantsPage(request({ accept: "text/html" }, method)), method).toBe(false);
    expect(wantsPage(request({ accept: "text/html" }, "HEAD"))).toBe(true);
  });
});

describe("plantListPageFor", () => {
  it("carries the filters over, and leaves the API's paging behind", () => {
    expect(plantListPageFor(new URL("http://x/plants"))).toBe("/");
    expect(plantListPageFor(new URL("http://x/plants?limit=5&after=9&tag=tropical&q=Boston%20fern"))).toBe("/?q=Boston+fern&tag=tropical");
    expect(plantListPageFor(new URL("http://x/plants?tag="))).toBe("/");
  });
});

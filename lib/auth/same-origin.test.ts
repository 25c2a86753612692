import { describe, expect, it } from "vitest";
import { appOrigin, isOwnNavigation, isSameOriginRequest } from "@/lib/auth/same-origin";

const APP = "http://plants.test:3000";

function request(headers: Record<string, string>): Request {
  return new Request(`${APP}/plants`, { method: "POST", headers });
}

describe("isSameOriginRequest", () => {
  it.each([
    ["Sec-Fetch-Site same-origin", { "sec-fetch-site": "same-origin" }, true],
    ["the app's Origin, from a browser without Fetch Metadata", { origin: APP }, true],
    ["Sec-Fetch-Site same-site (another port or subdomain)", { "sec-fetch-site": "same-site", origin: "http://plants.test:4000" }, false],
    ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }, false],
    ["Sec-Fetch-Site none (typed into the address bar)", { "sec-fetch-site": "none" }, false],
    ["Fetch Metadata over a matching Origin", { "sec-fetch-site": "cross-site", origin: APP }, false],
    ["another Origin", { origin: "https://evil.example" }, false],
    ["an opaque Origin (sandboxed frame, data: URL)", { origin: "null" }, false],
    ["no evidence at all", {}, false],
  ])("%s -> %s", (_, headers, expected) => {
    expect(isSameOriginRequest(request(headers), APP)).toBe(expected);
  });
});

describe("appOrigin", () => {
  it("prefers the configured public URL", () => {
    expect(appOrigin(request({ host: "internal:3000" }), "https://plants.example/app")).toBe("https://plants.example");
  });

  it("otherwise uses the host the browser addressed, through a proxy's headers if any", () => {
    expect(appOrigin(request({ host: "127.0.0.1:4123" }), undefined)).toBe("http://127.0.0.1:4123");
    expect(appOrigin(request({ host: "internal:3000", "x-forwarded-host": "plants.example", "x-forwarded-proto": "https" }), undefined)).toBe(
      "https://plants.example",
    );
  });
});

describe("isOwnNavigation", () => {
  it.each([
    ["a link on the app's pages", { "sec-fetch-site": "same-origin" }, true],
    ["typed into the address bar, or bookmarked", { "sec-fetch-site": "none" }, true],
    ["a browser without Fetch Metadata", {}, true],
    ["another site's link", { "sec-fetch-site": "cross-site" }, false],
    ["another port or subdomain", { "sec-fetch-site": "same-site" }, false],
  ])("%s -> %s", (_, headers, expected) => {
    expect(isOwnNavigation(new Request(`${APP}/plants.csv`, { headers }))).toBe(expected);
  });
});

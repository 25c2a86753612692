import { describe, expect, it } from "vitest";
import { pageAssetPaths } from "@/lib/client/offline/page-assets";

describe("pageAssetPaths", () => {
  it("finds the scripts, stylesheets and payload chunks a page names, each once", () => {
    const html = [
      '<link rel="stylesheet" href="/_next/static/chunks/0a1b2c.css" data-precedence="next"/>',
      '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/turbopack-3d4e.js"/>',
      '<script src="/_next/static/chunks/3d4e.js" async="" nonce="abc"></script>',
      '<script src="/_next/static/chunks/3d4e.js?dpl=x&amp;y=1" async=""></script>',
      '<script nonce="abc">self.__next_f.push([1,"5:I[\\"123\\",[\\"/_next/static/chunks/5f6a.js\\",\\"/_next/static/chunks/7b8c.js\\"],\\"PlantForm\\"]"])</script>',
      '<link rel="icon" href="/icon.svg?a1b2" type="image/svg+xml"/>',
    ].join("");
    expect(pageAssetPaths(html)).toEqual([
      "/_next/static/chunks/0a1b2c.css",
      "/_next/static/chunks/turbopack-3d4e.js",
      "/_next/static/chunks/3d4e.js",
      "/_next/static/chunks/5f6a.js",
      "/_next/static/chunks/7b8c.js",
    ]);
  });

  it("finds nothing in a page without static files", () => {
    expect(pageAssetPaths("<p>Offline</p>")).toEqual([]);
  });
});

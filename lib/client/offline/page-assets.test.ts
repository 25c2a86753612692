import { describe, expect, it } from "vitest";
import { loadedChunkPaths, pageAssetClosure, pageAssetPaths } from "@/lib/client/offline/page-assets";

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

describe("loadedChunkPaths", () => {
  it("finds the chunks a script's dynamic imports load, as Turbopack names them (relative to /_next/)", () => {
    const script = 'e.v(t=>Promise.all(["static/chunks/0p_4hz.js","static/chunks/1a~b.css"].map(t=>e.l(t))).then(()=>t(62176)))';
    expect(loadedChunkPaths(script)).toEqual(["/_next/static/chunks/0p_4hz.js", "/_next/static/chunks/1a~b.css"]);
    expect(loadedChunkPaths('let s="static/chunks"; fetch("/api")')).toEqual([]);
  });
});

describe("pageAssetClosure", () => {
  it("holds what the page names and what its scripts load later, in turn, visiting each file once", async () => {
    const scripts: Record<string, string> = {
      "/_next/static/chunks/page.js": 'Promise.all(["static/chunks/form.js"].map(e.l))',
      "/_next/static/chunks/form.js": 'Promise.all(["static/chunks/zod.js","static/chunks/page.js"].map(e.l))',
      "/_next/static/chunks/zod.js": "z",
    };
    const visited: string[] = [];
    const files = await pageAssetClosure('<script src="/_next/static/chunks/page.js"></script><link href="/_next/static/chunks/a.css"/>', async (path) => {
      visited.push(path);
      return scripts[path];
    });
    expect(files).toEqual(["/_next/static/chunks/page.js", "/_next/static/chunks/a.css", "/_next/static/chunks/form.js", "/_next/static/chunks/zod.js"]);
    expect(visited.sort()).toEqual([...files].sort());
  });
});

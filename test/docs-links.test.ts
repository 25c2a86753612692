import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// README.md and docs/*.md link to each other's files and sections, and links rot when a heading is
// renamed or a section moves. Every relative link must name a file that exists and, after `#`, a
// heading of that file, as GitHub makes its anchors.

const ROOT = path.resolve(import.meta.dirname, "..");
const PAGES = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lowercase, punctuation dropped, each space a hyphen. */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

// Fenced blocks hold shell and JSON, whose `#` and `](` are neither headings nor links.
const withoutFences = (markdown: string) => markdown.replace(/^ *```[\s\S]*?^ *```/gm, "");

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of withoutFences(readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = githubAnchor(heading!);
    const repeats = seen.get(anchor) ?? 0;
    seen.set(anchor, repeats + 1);
    found.add(repeats === 0 ? anchor : `${anchor}-${repeats}`);
  }
  return found;
}

function brokenLinks(page: string): string[] {
  const file = path.join(ROOT, page);
  // Inline code goes too (`[...]` in an example is no link), leaving link texts' brackets whole.
  const text = withoutFences(readFileSync(file, "utf8")).replace(/`[^`\n]*`/g, "");
  const broken: string[] = [];
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link!)) continue; // https:, mailto: and the like
    const [target = "", fragment] = link!.split("#", 2);
    const targetFile = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
    if (!existsSync(targetFile)) broken.push(`${link}: no file ${path.relative(ROOT, targetFile)}`);
    else if (fragment !== undefined && !anchors(targetFile).has(fragment)) broken.push(`${link}: no heading #${fragment}`);
  }
  return broken;
}

describe("the documentation's links", () => {
  it("makes anchors as GitHub does", () => {
    expect(githubAnchor("Many at once: `POST /plants/batch`")).toBe("many-at-once-post-plantsbatch");
    expect(githubAnchor("Keeping ids above 2^53 exact in JavaScript")).toBe("keeping-ids-above-253-exact-in-javascript");
    expect(githubAnchor("A plant's page")).toBe("a-plants-page");
  });

  it.each(PAGES)("%s: every relative link and #anchor resolves", (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });
});

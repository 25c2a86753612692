import { describe, expect, it } from "vitest";
import { plantExportFileName } from "@/lib/plants/export-file-name";

const DAY = new Date("2026-11-23T22:15:00Z");

describe("plantExportFileName", () => {
  it.each([
    [{}, "plants-2026-11-23.csv"],
    [{ tag: "tropical" }, "plants-tagged-tropical-2026-11-23.csv"],
    [{ tag: "Zimmerpflanze für Café", q: "FERN" }, "plants-tagged-zimmerpflanze-fur-cafe-named-fern-2026-11-23.csv"],
    [{ q: "100% \"cactus\"; rm -rf" }, "plants-named-100-cactus-rm-rf-2026-11-23.csv"],
    [{ q: "🌵" }, "plants-found-2026-11-23.csv"],
    [{ tag: "🌵", q: "fern" }, "plants-named-fern-2026-11-23.csv"],
    [{ tag: "x".repeat(50) }, `plants-tagged-${"x".repeat(40)}-2026-11-23.csv`],
  ])("%j -> %s", (filter, name) => {
    expect(plantExportFileName(filter, DAY)).toBe(name);
  });
});

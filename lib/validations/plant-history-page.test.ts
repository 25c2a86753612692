import { describe, expect, it } from "vitest";
import { plantHistoryHref, readHistoryBefore } from "@/lib/validations/plant-history-page";

// The page of a plant's history its URL asks for (issue 22).

describe("a plant page's history page in its URL", () => {
  it("reads the record id to continue before, exact as any int64", () => {
    expect(readHistoryBefore({})).toEqual({ mistaken: false });
    expect(readHistoryBefore({ historyBefore: "9223372036854775807" })).toEqual({ before: 9223372036854775807n, mistaken: false });
    expect(readHistoryBefore({ historyBefore: "9007199254740993", id: "7" })).toEqual({ before: 9007199254740993n, mistaken: false });
  });

  it("takes an id written any other way, or given twice, for a mistake", () => {
    for (const historyBefore of ["", "007", "1e3", "12abc", "9223372036854775808", ["1", "2"]]) {
      expect(readHistoryBefore({ historyBefore }), String(historyBefore)).toEqual({ mistaken: true });
    }
  });

  it("links the newest page and an older one at the plant's own URL, at its history", () => {
    expect(plantHistoryHref(9007199254740993n)).toBe("/plants/9007199254740993#plant-history");
    expect(plantHistoryHref(9007199254740993n, 9007199254740995n)).toBe("/plants/9007199254740993?historyBefore=9007199254740995#plant-history");
  });
});

import { describe, expect, it } from "vitest";
import { guardCsvText, unguardCsvText } from "@/lib/plants/csv-cells";

describe("CSV text cells", () => {
  it("guard what a spreadsheet would evaluate, and nothing else", () => {
    expect(["=SUM(A1:A2)", "+1", "-Fern", "@cmd", "'quoted"].map(guardCsvText)).toEqual(["'=SUM(A1:A2)", "'+1", "'-Fern", "'@cmd", "''quoted"]);
    expect(["Fern", "a=b", " =padded", "Ivy's"].map(guardCsvText)).toEqual(["Fern", "a=b", " =padded", "Ivy's"]);
  });

  it("come back exactly as they were", () => {
    for (const text of ["=SUM(A1:A2)", "+1", "-Fern", "@cmd", "'quoted", "''twice", "Fern", "'", "a'b", "=", "Ivy's"]) {
      expect(unguardCsvText(guardCsvText(text))).toBe(text);
    }
    // A lone apostrophe before anything else is the text itself.
    expect(unguardCsvText("'Fern")).toBe("'Fern");
  });
});

import { describe, expect, it } from "vitest";
import { plantExportHref, plantListHref, readPlantListSearch } from "@/lib/validations/plant-list";

describe("readPlantListSearch", () => {
  it("reads the filters, the order and the page, with defaults for what is absent", () => {
    expect(readPlantListSearch({})).toEqual({ search: { sort: "-added", page: 1 }, errors: {} });
    expect(readPlantListSearch({ q: "FERN", tag: "tropical", sort: "name", page: "3" })).toEqual({
      search: { q: "FERN", tag: "tropical", sort: "name", page: 3 },
      errors: {},
    });
  });

  it("takes an empty field, as a GET form sends it, for no filter", () => {
    expect(readPlantListSearch({ q: "", tag: "", sort: "-added" })).toEqual({ search: { sort: "-added", page: 1 }, errors: {} });
  });

  it("trims the name's search text, as a person typing it means it; only spaces is no filter", () => {
    expect(readPlantListSearch({ q: "  fern " }).search.q).toBe("fern");
    expect(readPlantListSearch({ q: "Boston fern" }).search.q).toBe("Boston fern");
    expect(readPlantListSearch({ q: "   " })).toEqual({ search: { sort: "-added", page: 1 }, errors: {} });
  });

  it("matches the tag exactly as written: a stored tag may begin or end with a space", () => {
    expect(readPlantListSearch({ tag: "fern " }).search.tag).toBe("fern ");
  });

  it("names a filter's mistake in the API's words, and leaves that filter out", () => {
    expect(readPlantListSearch({ q: "fern", tag: "x".repeat(51), sort: "id" })).toEqual({
      search: { q: "fern", sort: "id", page: 1 },
      errors: { tag: "tag must be at most 50 characters (got 51)" },
    });
    expect(readPlantListSearch({ q: ["a", "b"], tag: " " }).errors).toEqual({ q: "q must be given once", tag: "tag must not be only whitespace" });
  });

  it("falls back to the default order and the first page for values no link makes", () => {
    for (const page of ["0", "-1", "01", "1.5", "abc", "99999999", ["2", "3"]]) {
      expect(readPlantListSearch({ page }).search.page, String(page)).toBe(1);
    }
    expect(readPlantListSearch({ sort: "price" }).search.sort).toBe("-added");
  });
});

describe("plantListHref and plantExportHref", () => {
  it("leave defaults out, so each search has one URL, and read back to the same search", () => {
    expect(plantListHref({})).toBe("/");
    expect(plantListHref({ sort: "-added", page: 1 })).toBe("/");
    const search = { q: "100% & more", tag: "café", sort: "-name", page: 2 } as const;
    const href = plantListHref(search);
    expect(href).toBe("/?q=100%25+%26+more&tag=caf%C3%A9&sort=-name&page=2");
    expect(readPlantListSearch(Object.fromEntries(new URL(href, "http://x").searchParams)).search).toEqual(search);
    expect(plantExportHref({})).toBe("/plants.csv");
    expect(plantExportHref({ q: "fern", tag: "a b" })).toBe("/plants.csv?q=fern&tag=a+b");
  });
});

import { describe, expect, it } from "vitest";
import { plantFormSchema } from "@/lib/validations/plant";

// The form's schema is the API's, with the id typed as text.

function issues(values: { id: string; name: string; tag: string }) {
  const result = plantFormSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("plantFormSchema", () => {
  it("turns the id text into the exact bigint, with no JS number in between", () => {
    expect(plantFormSchema.parse({ id: "9007199254740993", name: "Fern", tag: "" })).toEqual({ id: 9007199254740993n, name: "Fern", tag: undefined });
    expect(plantFormSchema.parse({ id: " -9223372036854775808 ", name: "Fern", tag: "x" }).id).toBe(-(2n ** 63n));
  });

  it.each([
    ["", "id: id is required"],
    ["12x", "id: id must be a whole number: digits only, with an optional leading minus"],
    ["1e3", "id: id must be a whole number: digits only, with an optional leading minus"],
    ["0x10", "id: id must be a whole number: digits only, with an optional leading minus"],
    ["9223372036854775808", "id: id must be an integer from -9223372036854775808 to 9223372036854775807"],
  ])("refuses the id %j", (id, message) => {
    expect(issues({ id, name: "Fern", tag: "" })).toEqual([message]);
  });

  it("keeps the API's name and tag rules", () => {
    expect(issues({ id: "1", name: "", tag: " " })).toEqual(["name: name must not be empty", "tag: tag must not be only whitespace"]);
    expect(issues({ id: "1", name: "n".repeat(201), tag: "t".repeat(51) })).toEqual([
      "name: name must be at most 200 characters (got 201)",
      "tag: tag must be at most 50 characters (got 51)",
    ]);
  });
});

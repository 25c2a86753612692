import { describe, expect, it } from "vitest";
import { applyPlantPatch, INT64_MAX, INT64_MIN, newPlantSchema, plantPatchSchema } from "@/lib/validations/plant";

function problems(input: unknown): string[] {
  const result = newPlantSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("newPlantSchema", () => {
  it.each([
    { id: 0n, name: "a" },
    { id: INT64_MAX, name: "x".repeat(200), tag: "t".repeat(50) },
    { id: INT64_MIN, name: "Monstera deliciosa", tag: "tropical" },
    { id: 1n, name: "\u{1F331}".repeat(200) }, // 200 code points, 400 UTF-16 units
    { id: 2n, name: "  Fern  " }, // kept as sent, not trimmed
    { id: 3n, name: "Zimmerpflanze \u00fc\u00df", tag: "\u65e5\u672c" },
  ])("accepts %o", (input) => {
    expect(newPlantSchema.parse(input)).toEqual(input);
  });

  it.each([
    [{ name: "a" }, "id is required"],
    [{ id: 1n }, "name is required"],
    [{ id: 1, name: "a" }, "id must be an integer"],
    [{ id: "1", name: "a" }, "id must be an integer"],
    [{ id: INT64_MAX + 1n, name: "a" }, "id must be an integer"],
    [{ id: INT64_MIN - 1n, name: "a" }, "id must be an integer"],
    [{ id: 1n, name: "" }, "name must not be empty"],
    [{ id: 1n, name: " \t" }, "name must not contain control characters"],
    [{ id: 1n, name: "   " }, "name must not be only whitespace"],
    [{ id: 1n, name: "\u00a0\u2003" }, "name must not be only whitespace"],
    [{ id: 1n, name: "x".repeat(201) }, "name must be at most 200 characters (got 201)"],
    [{ id: 1n, name: "a\u0000b" }, "name must not contain control characters"],
    [{ id: 1n, name: "a\u007fb" }, "name must not contain control characters"],
    [{ id: 1n, name: "a\u0085b" }, "name must not contain control characters"],
    [{ id: 1n, name: "a\nb" }, "name must not contain control characters"],
    [{ id: 1n, name: "\ud800" }, "name must be valid Unicode"],
    [{ id: 1n, name: 5 }, "name must be a string"],
    [{ id: 1n, name: "a", tag: null }, "tag must be a string"],
    [{ id: 1n, name: "a", tag: "" }, "tag must not be empty"],
    [{ id: 1n, name: "a", tag: "t".repeat(51) }, "tag must be at most 50 characters (got 51)"],
    [{ id: 1n, name: "a", extra: 1 }, "unknown field: extra"],
    [[], "the body must be a JSON object"],
    [null, "the body must be a JSON object"],
    ["plant", "the body must be a JSON object"],
  ])("rejects %o with %j", (input, message) => {
    expect(problems(input).join("; ")).toContain(message);
  });

  it("names every failing field at once", () => {
    expect(problems({ id: "x", name: "", tag: null })).toHaveLength(3);
  });
});

describe("plantPatchSchema and applyPlantPatch", () => {
  const stored = { id: 7n, name: "Fern", tag: "green" };
  const patched = (patch: unknown) => applyPlantPatch(stored, plantPatchSchema.parse(patch));

  it.each([
    [{}, stored],
    [{ name: "Ivy" }, { id: 7n, name: "Ivy", tag: "green" }],
    [{ tag: "blue" }, { id: 7n, name: "Fern", tag: "blue" }],
    [{ tag: null }, { id: 7n, name: "Fern" }],
    [{ id: 7n, name: "Ivy", tag: null }, { id: 7n, name: "Ivy" }],
  ])("merges %o into the stored plant (RFC 7396)", (patch, result) => {
    expect(patched(patch)).toEqual(result);
    expect(newPlantSchema.safeParse(patched(patch)).success).toBe(true);
  });

  it("adds a tag to a plant without one", () => {
    expect(applyPlantPatch({ id: 1n, name: "Bare" }, plantPatchSchema.parse({ tag: "new" }))).toEqual({ id: 1n, name: "Bare", tag: "new" });
  });

  it.each([
    [{ name: "" }, "name must not be empty"],
    [{ name: null }, "name must be a string"],
    [{ name: "x".repeat(201) }, "name must be at most 200 characters (got 201)"],
    [{ tag: "" }, "tag must not be empty"],
    [{ tag: 5 }, "tag must be a string"],
    [{ id: "7" }, "id must be an integer"],
    [{ colour: "green", size: 2 }, "unknown fields: colour, size"],
    [[], "the body must be a JSON object (a PlantPatch)"],
    [null, "the body must be a JSON object (a PlantPatch)"],
  ])("refuses %o with the create rules' message %j", (patch, message) => {
    const result = plantPatchSchema.safeParse(patch);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join("; ")).toContain(message);
  });

  it("leaves a stored plant that breaks today's rules to newPlantSchema to refuse", () => {
    const merged = applyPlantPatch({ id: 1n, name: "   " }, plantPatchSchema.parse({ tag: "t" }));
    expect(newPlantSchema.safeParse(merged).error?.issues.map((issue) => issue.message)).toEqual(["name must not be only whitespace"]);
  });
});

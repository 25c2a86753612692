import { describe, expect, it } from "vitest";
import { plantPatchSchema } from "@/lib/validations/plant";
import { plantEditFormSchema, plantEditFormValues, plantEditPatch } from "@/lib/validations/plant-edit";

const STORED = { id: 9007199254740993n, name: "Monstera deliciosa", tag: "tropical" };

function messages(values: { name: string; tag: string }) {
  const result = plantEditFormSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("plantEditFormSchema", () => {
  it("refuses what PATCH refuses, in its words", () => {
    expect(messages({ name: "", tag: "" })).toEqual(["name: name must not be empty"]);
    expect(messages({ name: "   ", tag: " " })).toEqual(["name: name must not be only whitespace", "tag: tag must not be only whitespace"]);
    expect(messages({ name: "x".repeat(201), tag: "t".repeat(51) })).toEqual([
      "name: name must be at most 200 characters (got 201)",
      "tag: tag must be at most 50 characters (got 51)",
    ]);
    expect(messages({ name: "tab\there", tag: "ok" })).toEqual(["name: name must not contain control characters"]);
  });

  it("reads an empty tag as no tag", () => {
    expect(plantEditFormSchema.parse({ name: "Fern", tag: "" })).toEqual({ name: "Fern", tag: null });
    expect(plantEditFormSchema.parse({ name: "🌵".repeat(200), tag: "aroid" })).toEqual({ name: "🌵".repeat(200), tag: "aroid" });
  });
});

describe("plantEditPatch", () => {
  it("holds only what changed, and null to remove the tag; a patch PATCH takes", () => {
    const edit = (values: { name: string; tag: string }) => plantEditPatch(STORED, plantEditFormSchema.parse(values));
    expect(edit(plantEditFormValues(STORED))).toEqual({});
    expect(edit({ name: "Swiss cheese plant", tag: "tropical" })).toEqual({ name: "Swiss cheese plant" });
    expect(edit({ name: "Monstera deliciosa", tag: "" })).toEqual({ tag: null });
    const both = edit({ name: "Monstera", tag: "aroid" });
    expect(both).toEqual({ name: "Monstera", tag: "aroid" });
    expect(plantPatchSchema.parse(both)).toEqual(both);
    expect(plantEditPatch({ id: 1n, name: "Fern" }, { name: "Fern", tag: null })).toEqual({});
  });
});

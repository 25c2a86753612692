import { describe, expect, it } from "vitest";
import { nextPlantId } from "@/lib/client/next-plant-id";

describe("nextPlantId", () => {
  it("offers the server's suggestion until a larger id is used here", () => {
    expect(nextPlantId("43", [])).toBe("43");
    expect(nextPlantId("43", [7n])).toBe("43");
    expect(nextPlantId("43", [43n])).toBe("44");
    expect(nextPlantId("43", [9007199254740992n, 50n])).toBe("9007199254740993");
  });

  it("never offers more than the largest int64, nor anything without a suggestion or a use", () => {
    expect(nextPlantId("", [9223372036854775807n])).toBe("");
    expect(nextPlantId("9", [9223372036854775807n])).toBe("9");
    expect(nextPlantId("", [])).toBe("");
  });
});

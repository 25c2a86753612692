import { describe, expect, it } from "vitest";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { createPlant, deletePlant, getPlant, storeNewPlants } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { storedPlants } from "@/test/support/test-database";

// The data layer on a real SQLite file; the HTTP suite covers the same rules
// through the API. Here: what one batch decides, and the domain errors.

const database = setUpTestDatabase();

function outcomes(settled: PromiseSettledResult<unknown>[]) {
  return settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : outcome.reason));
}

describe("storeNewPlants", () => {
  it("decides each plant of one batch: new, the same again, or a conflict", async () => {
    await createPlant({ id: 1n, name: "Fern" });
    const settled = await storeNewPlants([
      { id: 2n, name: "Ivy", tag: "climber" },
      { id: 1n, name: "Fern" },
      { id: 1n, name: "Palm" },
      { id: 2n, name: "Ivy", tag: "climber" },
      { id: 2n, name: "Ivy" },
      { id: 9223372036854775807n, name: "Edge" },
    ]);
    expect(outcomes(settled)).toEqual([
      { id: 2n, name: "Ivy", tag: "climber" },
      { id: 1n, name: "Fern" },
      new PlantConflictError(1n),
      { id: 2n, name: "Ivy", tag: "climber" },
      new PlantConflictError(2n),
      { id: 9223372036854775807n, name: "Edge" },
    ]);
    expect(await storedPlants(database)).toEqual([
      { id: 1n, name: "Fern", tag: null },
      { id: 2n, name: "Ivy", tag: "climber" },
      { id: 9223372036854775807n, name: "Edge", tag: null },
    ]);
  });
});

describe("getPlant and deletePlant", () => {
  it("throw PlantNotFoundError for an id no plant has", async () => {
    await createPlant({ id: 10n, name: "Moss" });
    expect(await getPlant(10n)).toEqual({ id: 10n, name: "Moss" });
    await deletePlant(10n);
    await expect(getPlant(10n)).rejects.toEqual(new PlantNotFoundError(10n));
    await expect(deletePlant(10n)).rejects.toBeInstanceOf(PlantNotFoundError);
  });
});

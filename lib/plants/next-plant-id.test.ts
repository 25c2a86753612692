import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { suggestNextPlantId } from "@/lib/plants/next-plant-id";
import { INT64_MAX, INT64_MIN } from "@/lib/validations/plant";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// The staff form's suggested id, on a real database of the run's engine.

setUpTestDatabase();

async function storeOnly(...ids: bigint[]): Promise<void> {
  await db().plant.deleteMany({});
  for (const id of ids) await db().plant.create({ data: { id, name: `Plant ${id}` } });
}

describe("suggestNextPlantId", () => {
  it("is 1 in an empty store", async () => {
    await storeOnly();
    expect(await suggestNextPlantId()).toBe(1n);
  });

  it("is one more than the largest stored id, exactly above 2^53", async () => {
    await storeOnly(3n, 9007199254740992n, 42n);
    expect(await suggestNextPlantId()).toBe(9007199254740993n);
  });

  it("is 1 when every stored id is below 1", async () => {
    await storeOnly(-41n, 0n);
    expect(await suggestNextPlantId()).toBe(1n);
  });

  it("is the top of the highest gap once the largest int64 is stored", async () => {
    await storeOnly(5n, 7n, 8n, INT64_MAX - 1n, INT64_MAX);
    expect(await suggestNextPlantId()).toBe(9n);
    await storeOnly(INT64_MAX);
    expect(await suggestNextPlantId()).toBe(INT64_MAX - 1n);
    await storeOnly(INT64_MIN, INT64_MAX);
    expect(await suggestNextPlantId()).toBe(INT64_MIN + 1n);
  });
});

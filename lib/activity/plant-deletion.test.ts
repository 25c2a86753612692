import { describe, expect, it } from "vitest";
import { type Attribution, tokenActor } from "@/lib/activity/actor";
import { namesOfTokenOwners } from "@/lib/activity/people-names";
import { findPlantDeletion } from "@/lib/activity/plant-deletion";
import { plantHistory } from "@/lib/activity/history";
import { createUser } from "@/lib/auth/accounts/users";
import { createPlant, deletePlant } from "@/lib/plants/plant-queries";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// What a deleted plant's page reads from the activity record, on a real
// database of the run's engine: the delete (when, who, the plant as it was)
// and the names of the people whose tokens made its changes.

const database = setUpTestDatabase();

describe("a deleted plant's record", () => {
  it("gives the delete and the plant as it was, exact above 2^53", async () => {
    const id = 9007199254740993n + 22n;
    await createPlant({ id, name: "Monstera", tag: "aroid" }, TEST_BY);
    await deletePlant(id, TEST_BY);
    const found = await findPlantDeletion(id);
    expect(found?.plant).toEqual({ id, name: "Monstera", tag: "aroid" });
    expect(found?.deletion).toMatchObject({ action: "plant.deleted", actor: { kind: "cli", name: "test" }, subjectId: String(id) });
  });

  it("gives a plant without a tag as it was, and nothing for an id the record does not know", async () => {
    await createPlant({ id: 23n, name: "Fern" }, TEST_BY);
    await deletePlant(23n, TEST_BY);
    expect((await findPlantDeletion(23n))?.plant).toEqual({ id: 23n, name: "Fern" });
    expect(await findPlantDeletion(24n)).toBeUndefined();
  });

  it("says no delete is on record when the plant was removed by another program", async () => {
    await createPlant({ id: 25n, name: "Ivy" }, TEST_BY);
    await database.query("DELETE FROM plants WHERE id = 25");
    expect(await findPlantDeletion(25n)).toEqual({ deletion: null, plant: null });
  });
});

describe("the names of tokens' owners", () => {
  it("names each person whose token made a change, as named now, and nobody else", async () => {
    const ana = await createUser({ email: "ana@example.com", name: "Ana Lopez", role: "staff", password: "mossy granite kettle 42" }, TEST_BY);
    const till: Attribution = { actor: tokenActor({ id: "token-till", label: "till sync", ownerId: ana.id }), origin: null };
    const cliToken: Attribution = { actor: tokenActor({ id: "token-cli", label: "made at the CLI", ownerId: null }), origin: null };
    await createPlant({ id: 26n, name: "Aloe" }, till);
    await createPlant({ id: 27n, name: "Jade" }, cliToken);
    await createPlant({ id: 28n, name: "Pilea" }, TEST_BY);
    const entries = (await Promise.all([26n, 27n, 28n].map((id) => plantHistory(id, { limit: 1 })))).flatMap((page) => page.entries);
    expect(await namesOfTokenOwners(entries)).toEqual(new Map([[ana.id, "Ana Lopez"]]));
    expect(await namesOfTokenOwners([])).toEqual(new Map());
  });
});

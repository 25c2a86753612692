import { expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { readPlantBatch } from "@/lib/http/plant-batch-body";
import { previewPlantBatchCsv } from "@/lib/http/plant-batch-preview";
import { answerPlantBatch } from "@/lib/http/plant-batch-results";
import { plantCsv } from "@/lib/plants/plant-csv";
import { createPlant, createPlants } from "@/lib/plants/plant-queries";
import { PLANT_BATCH_MAX_BYTES } from "@/lib/validations/plant-batch";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { storedPlants } from "@/test/support/test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The staff import's preview on a real database of the run's engine: the
// batch's own reading of the CSV and its own answer, storing nothing; and the
// batch, given the same CSV next, answering just that.

const database = setUpTestDatabase();

const csv = (text: BlobPart) => new Blob([text], { type: "text/csv" });

/** What POST /plants/batch answers for this CSV: its route's two steps. */
async function batchAnswer(text: string) {
  return answerPlantBatch(await readPlantBatch(new Request("http://test.invalid/plants/batch", { method: "POST", headers: { "content-type": "text/csv" }, body: text })), (plants) => createPlants(plants, TEST_BY));
}

it("answers each row as the batch then does, shows its cells, and stores nothing", async () => {
  await createPlant({ id: 1n, name: "Fern" }, TEST_BY);
  await createPlant({ id: 2n, name: "Ivy" }, TEST_BY);
  const text = [
    "name,id,tag",
    "Monstera obliqua,9007199254740993,aroid",
    "Fern,1,",
    "Not ivy,2,climber",
    ",3,",
    `"'=HYPERLINK(""http://example.com"")",4,'-5`,
    "Bad id,12x,",
    "",
    `"Fern, Boston",5`,
    "Short",
    "Lowest,-9223372036854775808,",
  ].join("\r\n");
  const before = await storedPlants(database);

  const preview = await previewPlantBatchCsv(csv(text));
  expect(await storedPlants(database)).toEqual(before);
  if (!("rows" in preview)) throw new Error(preview.problem);
  expect(preview.rows.map(({ cells }) => cells)).toEqual([
    { name: "Monstera obliqua", id: "9007199254740993", tag: "aroid" },
    { name: "Fern", id: "1", tag: "" },
    { name: "Not ivy", id: "2", tag: "climber" },
    { name: "", id: "3", tag: "" },
    { name: '=HYPERLINK("http://example.com")', id: "4", tag: "-5" },
    { name: "Bad id", id: "12x", tag: "" },
    { name: "Fern, Boston", id: "5" },
    { name: "Short" },
    { name: "Lowest", id: "-9223372036854775808", tag: "" },
  ]);
  expect(preview.rows.map(({ result }) => [result.line, result.status, "error" in result ? result.error.message : result.plant])).toEqual([
    [2, "stored", { id: 9007199254740993n, name: "Monstera obliqua", tag: "aroid" }],
    [3, "already stored", { id: 1n, name: "Fern" }],
    [4, "conflict", "line 4: a plant with id 2 already exists with different data"],
    [5, "invalid", "line 5: name is required"],
    [6, "stored", { id: 4n, name: '=HYPERLINK("http://example.com")', tag: "-5" }],
    [7, "invalid", "line 7: id must be an integer from -9223372036854775808 to 9223372036854775807"],
    [9, "invalid", "line 9: the row has 2 cells; the header names 3"],
    [10, "invalid", "line 10: the row has 1 cell; the header names 3"],
    [11, "stored", { id: -9223372036854775808n, name: "Lowest" }],
  ]);

  expect(await batchAnswer(text)).toEqual(preview.rows.map(({ result }) => result));
  expect(await previewPlantBatchCsv(csv(text))).toEqual({
    rows: preview.rows.map(({ cells, result }) => ({ cells, result: result.status === "stored" ? { ...result, status: "already stored" } : result })),
  });
});

it("previews an export as already stored, and the batch stores it back unchanged", async () => {
  const plants = [
    { id: 9223372036854775807n, name: "=1+1", tag: "@home" },
    { id: 9007199254740995n, name: "'quoted", tag: "+plus" },
    { id: 20n, name: 'Say "hi", then\u00a0leave' },
    { id: -20n, name: "-minus" },
  ];
  await createPlants(plants, TEST_BY);
  let exported = "";
  for await (const chunk of plantCsv({})) exported += chunk;
  const preview = await previewPlantBatchCsv(csv(exported));
  if (!("rows" in preview)) throw new Error(preview.problem);
  expect(new Set(preview.rows.map(({ result }) => result.status))).toEqual(new Set(["already stored"]));

  const ids = plants.map((plant) => plant.id);
  await db().plant.deleteMany({ where: { id: { in: ids } } });
  const stored = (await batchAnswer(exported)).filter((result) => result.status === "stored");
  expect(stored.map((result) => "plant" in result && result.plant).sort((a, b) => (a && b && a.id < b.id ? -1 : 1))).toEqual(
    [...plants].sort((a, b) => (a.id < b.id ? -1 : 1)),
  );
  expect((await storedPlants(database)).filter((plant) => ids.includes(plant.id))).toEqual(
    [...plants].sort((a, b) => (a.id < b.id ? -1 : 1)).map((plant) => ({ tag: null, ...plant })),
  );
});

it("gives the batch's reason for a CSV it would refuse whole", async () => {
  const problem = async (body: BlobPart) => {
    const preview = await previewPlantBatchCsv(csv(body));
    return "problem" in preview ? preview.problem : preview;
  };
  expect(await problem("")).toBe("the CSV is empty; send a CSV header row (id,name,tag) and a row per plant");
  expect(await problem(new Uint8Array([0x69, 0x64, 0xff]))).toBe("the CSV is not valid UTF-8");
  expect(await problem("id,name,colour\r\n1,Fern,green\r\n")).toBe(
    'line 1: unknown column "colour"; the header row must name the columns id and name, and may name tag, each once, in any order',
  );
  expect(await problem('id,name\r\n1,Fern\r\n2,"Ivy\r\n')).toBe("the CSV is malformed in the row beginning on line 3: a quoted field is never closed");
  expect(await problem(`id,name\r\n${Array.from({ length: 1_001 }, (_, n) => `${n},Plant ${n}`).join("\r\n")}`)).toBe(
    "a batch holds at most 1000 plants; send more in several batches",
  );
  expect(await problem(`id,name\r\n1,${"x".repeat(PLANT_BATCH_MAX_BYTES)}`)).toBe(`the CSV is larger than ${PLANT_BATCH_MAX_BYTES} bytes`);
});

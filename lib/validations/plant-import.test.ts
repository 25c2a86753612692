import { describe, expect, it } from "vitest";
import { PLANT_BATCH_MAX_BYTES } from "@/lib/validations/plant-batch";
import { plantImportFormSchema } from "@/lib/validations/plant-import";

const issues = (values: unknown) => plantImportFormSchema.safeParse(values).error?.issues.map(({ path, message }) => ({ path, message }));

describe("plantImportFormSchema", () => {
  it("takes a file as it is, or the text as UTF-8 CSV", async () => {
    const file = new File([new Uint8Array([0x69, 0x64, 0xff])], "odd.csv", { type: "application/vnd.ms-excel" });
    expect(plantImportFormSchema.parse({ file, text: "" }).csv).toBe(file);
    const { csv } = plantImportFormSchema.parse({ file: undefined, text: "id,name\n1,Café" });
    expect(csv.type).toBe("text/csv");
    expect(await csv.text()).toBe("id,name\n1,Café");
  });

  it("wants exactly one source", () => {
    expect(issues({ file: undefined, text: "" })).toEqual([{ path: ["file"], message: "Choose a CSV file, or paste CSV text below" }]);
    expect(issues({ file: new File(["id,name"], "a.csv"), text: "id,name" })).toEqual([
      { path: ["text"], message: "Choose a file or paste text, not both: clear this text to import the file" },
    ]);
  });

  it("holds either to the batch's size, counting the text's UTF-8 bytes", () => {
    expect(issues({ file: new File([new Uint8Array(PLANT_BATCH_MAX_BYTES)], "a.csv"), text: "" })).toBeUndefined();
    expect(issues({ file: new File([new Uint8Array(PLANT_BATCH_MAX_BYTES + 1)], "a.csv"), text: "" })).toEqual([
      { path: ["file"], message: "The file is 2.0 MiB; an import takes at most 2 MiB (2,097,152 bytes): split it into several of up to 1,000 rows" },
    ]);
    // 3 bytes a character in UTF-8.
    expect(issues({ file: undefined, text: "✿".repeat(PLANT_BATCH_MAX_BYTES / 2) })).toEqual([
      { path: ["text"], message: "The text is 3.0 MiB; an import takes at most 2 MiB (2,097,152 bytes): split it into several of up to 1,000 rows" },
    ]);
  });
});

import type { Page } from "@playwright/test";
import { PLANT_BATCH_MAX_BYTES } from "../lib/validations/plant-batch";
import { expect, test } from "./fixtures";

// The staff import (/import): a CSV pasted or uploaded, previewed row by row
// as POST /plants/batch would decide it, with nothing stored; then imported
// through the batch, whose answer is shown. Ids here are this spec's own.

// Above 2^53 and odd: a JS number would make it ...000 or ...002.
const BEYOND_2_53 = "9007199254745001";

const SAME_ORIGIN = { "sec-fetch-site": "same-origin" };

async function storePlants(page: Page, json: string): Promise<void> {
  const response = await page.request.post("/plants/batch", { headers: { ...SAME_ORIGIN, "content-type": "application/json" }, data: json });
  expect(response.status(), await response.text()).toBe(200);
}

/** Each body row's cells, in order. */
async function expectRows(page: Page, table: string, rows: string[][]): Promise<void> {
  const bodyRows = page.getByRole("table", { name: table }).locator("tbody tr");
  await expect(bodyRows).toHaveCount(rows.length);
  for (const [n, cells] of rows.entries()) await expect(bodyRows.nth(n).getByRole("cell")).toHaveText(cells);
}

test.beforeEach(async ({ page }) => {
  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Import plants" })).toBeVisible();
  // The fields are disabled until the page has hydrated (components/forms/hydrated-form.tsx): the keyboard-only
  // spec's focus(), unlike fill, waits for nothing, and a key pressed sooner would go nowhere.
  await expect(page.getByLabel("Or paste CSV text")).toBeEnabled();
});

test("pasted CSV: the preview says what each row would do and stores nothing; the import stores exactly the valid rows", async ({ page, sql }) => {
  await storePlants(page, '[{"id": 7300001, "name": "Fern"}, {"id": 7300002, "name": "Ivy", "tag": "climber"}]');
  const csv = [
    "id,name,tag",
    `${BEYOND_2_53},Monstera obliqua,aroid`,
    "7300001,Fern,",
    "7300002,Not ivy,climber",
    "7300003,,",
    `7300004,"'=HYPERLINK(""http://evil.example"")",'@risk`,
    "12x,Bad id,",
    '7300005,"Fern, Boston"',
    "7300006,Calathea,prayer",
  ].join("\n");
  await page.getByLabel("Or paste CSV text").fill(csv);
  await page.getByRole("button", { name: "Preview" }).click();

  await expect(page.getByRole("heading", { name: "Preview: nothing is stored yet" })).toBeFocused();
  await expect(page.getByText("Others may add, change or delete plants before you import")).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("8 rows: 3 new, 1 already stored, 1 conflict, 3 invalid.");
  await expectRows(page, "What each row would do", [
    ["2", BEYOND_2_53, "Monstera obliqua", "aroid", "new"],
    ["3", "7300001", "Fern", "", "already stored"],
    ["4", "7300002", "Not ivy", "climber", "conflict: id taken by another plant"],
    ["5", "7300003", "", "", "invalid: name is required"],
    ["6", "7300004", '=HYPERLINK("http://evil.example")', "@risk", "new"],
    ["7", "12x", "Bad id", "", "invalid: id must be an integer from -9223372036854775808 to 9223372036854775807"],
    ["8", "7300005", "Fern, Boston", "", "invalid: the row has 2 cells; the header names 3"],
    ["9", "7300006", "Calathea", "prayer", "new"],
  ]);
  const mine = "SELECT id, name, tag FROM plants WHERE id BETWEEN 7300001 AND 7300099 OR id = $1 ORDER BY id";
  const before = [
    { id: 7300001n, name: "Fern", tag: null },
    { id: 7300002n, name: "Ivy", tag: "climber" },
  ];
  expect(await sql(mine, [BigInt(BEYOND_2_53)])).toEqual(before);

  await page.getByRole("button", { name: "Import 3 new plants" }).click();
  await expect(page.getByRole("heading", { name: "Import done" })).toBeFocused();
  await expect(page.getByRole("status")).toHaveText("8 rows: 3 stored, 1 already stored, 1 conflict, 3 invalid.");
  await expectRows(page, "What became of each row", [
    ["2", BEYOND_2_53, "Monstera obliqua", "aroid", "stored"],
    ["3", "7300001", "Fern", "", "already stored"],
    ["4", "7300002", "Not ivy", "climber", "conflict: id taken by another plant"],
    ["5", "7300003", "", "", "invalid: name is required"],
    ["6", "7300004", '=HYPERLINK("http://evil.example")', "@risk", "stored"],
    ["7", "12x", "Bad id", "", "invalid: id must be an integer from -9223372036854775808 to 9223372036854775807"],
    ["8", "7300005", "Fern, Boston", "", "invalid: the row has 2 cells; the header names 3"],
    ["9", "7300006", "Calathea", "prayer", "stored"],
  ]);
  await expect(page.getByRole("link", { name: BEYOND_2_53 })).toHaveAttribute("href", `/plants/${BEYOND_2_53}`);
  await expect(page.getByRole("link", { name: "7300001" })).toHaveAttribute("href", "/plants/7300001");
  expect(await sql(mine, [BigInt(BEYOND_2_53)])).toEqual([
    ...before,
    { id: 7300004n, name: '=HYPERLINK("http://evil.example")', tag: "@risk" },
    { id: 7300006n, name: "Calathea", tag: "prayer" },
    { id: BigInt(BEYOND_2_53), name: "Monstera obliqua", tag: "aroid" },
  ]);
});

test("uploaded file: an export of the API imports back unchanged", async ({ page, sql }) => {
  const plants = [
    { id: 7300101n, name: "'apostrophe", tag: "@at" },
    { id: 7300102n, name: 'Plain, with "quotes"', tag: null },
    { id: 7300103n, name: "+plus", tag: "-minus" },
    { id: 9007199254745003n, name: "=1+2", tag: "=SUM(A1)" },
  ];
  await storePlants(
    page,
    `[${plants.map(({ id, name, tag }) => `{"id": ${id}, "name": ${JSON.stringify(name)}${tag === null ? "" : `, "tag": ${JSON.stringify(tag)}`}}`).join(",")}]`,
  );
  const exported = await page.request.get("/plants?after=7300100", { headers: { ...SAME_ORIGIN, accept: "text/csv" } });
  expect(exported.status()).toBe(200);
  const file = { name: "plants.csv", mimeType: "text/csv", buffer: await exported.body() };
  expect(file.buffer.toString()).toContain(`9007199254745003,'=1+2,'=SUM(A1)\r\n`);

  await page.getByLabel("CSV file").setInputFiles(file);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("status")).toHaveText(/^(\d+) rows: \1 already stored\.$/);
  await expect(page.getByText("No row is new: importing now would store nothing.")).toBeVisible();

  const ids = plants.map((plant) => plant.id);
  await sql("DELETE FROM plants WHERE id IN ($1, $2, $3, $4)", ids);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("status")).toHaveText(/ 4 new, \d+ already stored\.$/);
  await page.getByRole("button", { name: "Import 4 new plants" }).click();
  await expect(page.getByRole("status")).toHaveText(/ 4 stored, \d+ already stored\.$/);
  await expect(page.getByRole("link", { name: "9007199254745003" })).toHaveAttribute("href", "/plants/9007199254745003");
  expect(await sql("SELECT id, name, tag FROM plants WHERE id IN ($1, $2, $3, $4) ORDER BY id", ids)).toEqual(plants);
});

test("a CSV the batch would refuse whole is refused plainly, before anything is stored", async ({ page }) => {
  const text = page.getByLabel("Or paste CSV text");
  const preview = page.getByRole("button", { name: "Preview" });
  // In the form: Next keeps a route announcer of its own with that role.
  const alert = page.locator("form").getByRole("alert");
  const refuses = async (csv: string, problem: string) => {
    await text.fill(csv);
    await preview.click();
    await expect(alert).toHaveText(`This CSV cannot be imported: ${problem}. Nothing was stored.`);
    await expect(page.getByRole("heading", { level: 2 })).toHaveCount(0);
  };

  await preview.click();
  await expect(page.getByText("Choose a CSV file, or paste CSV text below")).toBeVisible();
  await expect(page.getByLabel("CSV file")).toHaveAttribute("aria-invalid", "true");

  await refuses("id,nom\n1,Fern", 'line 1: unknown column "nom"; the header row must name the columns id and name, and may name tag, each once, in any order');
  await refuses('id,name\n7300201,Fern\n7300202,"Ivy\n', "the CSV is malformed in the row beginning on line 3: a quoted field is never closed");

  await text.fill("");
  const upload = page.getByLabel("CSV file");
  // 1.5 MB: past Next's default limit for a server action's body, within the batch's.
  const rows = Array.from({ length: 1_001 }, (_, n) => `${7300300 + n},Plant ${n},${"t".repeat(1_500)}`);
  await upload.setInputFiles({ name: "long.csv", mimeType: "text/csv", buffer: Buffer.from(["id,name,tag", ...rows].join("\n")) });
  await preview.click();
  await expect(alert).toHaveText("This CSV cannot be imported: a batch holds at most 1000 plants; send more in several batches. Nothing was stored.");
  await upload.setInputFiles({ name: "latin1.csv", mimeType: "text/csv", buffer: Buffer.from("id,name\n7300203,Caf\xe9", "latin1") });
  await preview.click();
  await expect(alert).toHaveText("This CSV cannot be imported: the CSV is not valid UTF-8. Nothing was stored.");

  // Past the batch's size the file is not even sent: the batch would only refuse it.
  const sent: string[] = [];
  page.on("request", (request) => void (request.method() === "POST" && sent.push(request.url())));
  await upload.setInputFiles({ name: "large.csv", mimeType: "text/csv", buffer: Buffer.alloc(PLANT_BATCH_MAX_BYTES + 1, "a") });
  await preview.click();
  await expect(page.getByText("The file is 2.0 MiB; an import takes at most 2 MiB (2,097,152 bytes): split it into several of up to 1,000 rows")).toBeVisible();
  await text.fill("id,name");
  await preview.click();
  await expect(page.getByText("Choose a file or paste text, not both: clear this text to import the file")).toBeVisible();
  expect(sent).toEqual([]);

  await page.getByRole("button", { name: "Clear file" }).click();
  await expect(upload).toBeFocused();
  await preview.click();
  await expect(page.getByRole("status")).toHaveText("0 rows: the CSV has its header row and nothing else.");
  await expect(page.getByRole("table")).toHaveCount(0);
});

test("the import works from the keyboard alone", async ({ page, sql }) => {
  await page.getByLabel("Or paste CSV text").focus();
  await page.keyboard.type("id,name,tag\n7300401,Aloe vera,succulent");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Preview" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Preview: nothing is stored yet" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("region", { name: "What each row would do" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Import 1 new plant" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Import done" })).toBeFocused();
  await expect(page.getByRole("status")).toHaveText("1 row: 1 stored.");
  expect(await sql("SELECT name, tag FROM plants WHERE id = $1", [7300401n])).toEqual([{ name: "Aloe vera", tag: "succulent" }]);
});

import { ApiError } from "@/lib/http/api-error";
import { BATCH_BODY_LIMIT } from "@/lib/http/body-limits";
import { type CsvRecord, readCsvBody } from "@/lib/http/csv-body";
import { readJsonBody, requireMediaType } from "@/lib/http/json-body";
import { parseInput } from "@/lib/http/parse-input";
import { parseExactJson } from "@/lib/json/exact-json";
import { unguardCsvText } from "@/lib/plants/csv-cells";
import { PLANT_BATCH_MAX, plantBatchSchema, type PlantCsvCells } from "@/lib/validations/plant-batch";
import { type PlantField, plantFieldSchema } from "@/lib/validations/plant";

/**
 * One item of a batch as read from the body, before it is checked against
 * NewPlant: its input, or the reason it was refused before that (a CSV row of
 * the wrong length, a JSON item that is not an object). For CSV, `line` and
 * `cells`: the row's cells by the header's columns, as written (for the staff
 * import to show the row; a short row lacks the last ones, a long row's
 * extra cells are left out).
 */
export type PlantBatchItem = { index: number; line?: number; cells?: PlantCsvCells } & ({ input: unknown } | { refused: ApiError });

const BATCH_MEDIA_TYPES = ["application/json", "text/csv"] as const;

/**
 * The items of a POST /plants/batch body, JSON or CSV. The batch as a whole
 * is refused (415, 413, 400) when it cannot be read, is not a list or is too
 * long; every item read is answered on its own afterwards.
 */
export async function readPlantBatch(request: Request): Promise<PlantBatchItem[]> {
  const mediaType = requireMediaType(request, BATCH_MEDIA_TYPES);
  return mediaType === "text/csv" ? readCsvBatch(request) : readJsonBatch(request);
}

async function readJsonBatch(request: Request): Promise<PlantBatchItem[]> {
  const body = await readJsonBody(request, { limit: BATCH_BODY_LIMIT, expected: "a JSON array of plants" });
  return parseInput(plantBatchSchema, body).map((input, index) =>
    isObject(input) ? { index, input } : { index, refused: itemRefusal("(item)", "each item must be a JSON object (a NewPlant)") },
  );
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readCsvBatch(request: Request): Promise<PlantBatchItem[]> {
  // One record past the most a batch may hold is enough to know it holds too many.
  const records = await readCsvBody(request, {
    limit: BATCH_BODY_LIMIT,
    maxRecords: PLANT_BATCH_MAX + 2,
    expected: "a CSV header row (id,name,tag) and a row per plant",
  });
  const [header, ...rows] = records;
  if (!header) throw new ApiError("BadRequest", "the CSV has no header row; its first row must name the columns id,name,tag");
  const columns = readHeader(header);
  parseInput(plantBatchSchema, rows);
  return rows.map((row, index) => {
    const cells: PlantCsvCells = Object.fromEntries(columns.flatMap((column, at) => (at < row.cells.length ? [[column, row.cells[at]!]] : [])));
    if (row.cells.length !== columns.length) {
      const message = `the row has ${row.cells.length} cell${row.cells.length === 1 ? "" : "s"}; the header names ${columns.length}`;
      return { index, line: row.line, cells, refused: itemRefusal("(row)", message) };
    }
    const input = Object.fromEntries(columns.flatMap((column, at) => cellValue(column, row.cells[at]!)));
    return { index, line: row.line, cells, input };
  });
}

const COLUMNS = plantFieldSchema.options;
const REQUIRED_COLUMNS: readonly PlantField[] = ["id", "name"];

/** The header's columns: the NewPlant fields, each once, id and name required, in any order. */
function readHeader(header: CsvRecord): PlantField[] {
  const rule = `the header row must name the columns ${REQUIRED_COLUMNS.join(" and ")}, and may name tag, each once, in any order`;
  const problem = (what: string) => new ApiError("BadRequest", `line ${header.line}: ${what}; ${rule}`);
  const columns: PlantField[] = [];
  for (const cell of header.cells) {
    const column = COLUMNS.find((known) => known === cell);
    if (column === undefined) throw problem(`unknown column ${JSON.stringify(cell)}`);
    if (columns.includes(column)) throw problem(`the column ${column} is named twice`);
    columns.push(column);
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length > 0) throw problem(`no column ${missing.join(" or ")}`);
  return columns;
}

// A JSON number literal, exactly as RFC 8259 writes one.
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/**
 * A cell as the NewPlant field it stands for. An empty cell is an absent
 * value (so no tag, and a missing id or name). An id is read as the JSON
 * reader reads a number, so 1e3 is the integer 1000 and 1.5 is a fraction
 * that newPlantSchema refuses; any other text is handed on as text, which it
 * refuses too. Text cells lose the formula guard (lib/plants/csv-cells.ts).
 */
function cellValue(column: PlantField, cell: string): [PlantField, unknown][] {
  if (cell === "") return [];
  if (column !== "id") return [[column, unguardCsvText(cell)]];
  return [[column, JSON_NUMBER.test(cell) ? parseExactJson(cell) : cell]];
}

function itemRefusal(field: string, message: string): ApiError {
  return new ApiError("BadRequest", message, { details: [{ field, message }] });
}

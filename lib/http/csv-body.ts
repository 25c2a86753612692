import { CsvError, type Info, parse } from "csv-parse/sync";
import { ApiError } from "@/lib/http/api-error";
import type { BodyLimit } from "@/lib/http/body-limits";
import { readTextBody, requireMediaType } from "@/lib/http/json-body";

/** One record of a CSV body: its cells, and the line it begins on (1-based). */
export type CsvRecord = { line: number; cells: string[] };

/**
 * Reads a text/csv body (RFC 4180) into its records, the header row included,
 * with the limits and answers of the JSON reader: 415 for another media type
 * or charset, 413 past the limit, 400 for an empty body, invalid UTF-8 or a
 * malformed file (naming its line). Rows may differ in length: that is for
 * the caller to judge, row by row. Empty lines are skipped but counted.
 * At most `maxRecords` are read; a caller seeing that many knows there were
 * at least that many, without parsing a body of a million tiny rows.
 */
export async function readCsvBody(request: Request, { limit, maxRecords, expected }: { limit: BodyLimit; maxRecords: number; expected: string }): Promise<CsvRecord[]> {
  requireMediaType(request, ["text/csv"]);
  const bytes = Buffer.from(await readTextBody(request, limit, expected), "utf8");
  let parsed: { record: string[]; info: Info }[];
  try {
    // With info: true each record comes with the parser's counts, which the declared types do not model.
    parsed = parse(bytes, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, to: maxRecords }) as unknown as typeof parsed;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // csv-parse's error tells where the record it was reading begins (past the records it had read).
    const lines = new LineCounter(bytes);
    const line = lines.lineAt(lines.skipEmptyLines(typeof error.bytes === "number" ? error.bytes : 0));
    throw new ApiError("BadRequest", `the CSV is malformed in the row beginning on line ${line}: ${csvProblem(error)}`);
  }
  // csv-parse counts the lines of a quoted CRLF twice, so lines are counted
  // here from where each record ends (info.bytes, its record delimiter included).
  const lines = new LineCounter(bytes);
  let end = 0;
  return parsed.map(({ record, info }) => {
    const start = lines.skipEmptyLines(end);
    end = info.bytes;
    return { line: lines.lineAt(start), cells: record };
  });
}

const CR = 0x0d;
const LF = 0x0a;

/** Line numbers of byte offsets, asked in ascending order: CRLF, LF and a lone CR each end a line. */
class LineCounter {
  private offset = 0;
  private line = 1;

  constructor(private readonly bytes: Uint8Array) {}

  lineAt(target: number): number {
    for (; this.offset < Math.min(target, this.bytes.length); this.offset++) {
      const byte = this.bytes[this.offset];
      if (byte === LF || (byte === CR && this.bytes[this.offset + 1] !== LF)) this.line++;
    }
    return this.line;
  }

  /** The offset of the first byte at or after `offset` that is not a line break. */
  skipEmptyLines(offset: number): number {
    let at = offset;
    while (this.bytes[at] === CR || this.bytes[at] === LF) at++;
    return at;
  }
}

function csvProblem(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted field is never closed";
    case "INVALID_OPENING_QUOTE":
      return "a field that is not quoted holds a quote; quote the whole field and double each quote inside it (RFC 4180)";
    case "CSV_INVALID_CLOSING_QUOTE":
      return "a quoted field's closing quote is followed by more text; double each quote inside a quoted field (RFC 4180)";
    default:
      return error.message;
  }
}

// A column's values between the two engines' representations (issue 23's
// copy). Each value read is turned into one engine-free value, and each
// engine is written that value as the app itself writes it there:
//
// | kind      | SQLite holds                            | PostgreSQL holds                  | in between     |
// |-----------|-----------------------------------------|-----------------------------------|----------------|
// | integer   | INTEGER (read as bigint: safeIntegers)  | BIGINT, INTEGER (int8 read as text)| bigint        |
// | text      | TEXT                                    | TEXT                              | string         |
// | timestamp | text, 2026-11-26T12:00:00.000+00:00     | TIMESTAMP(3) holding UTC (read as | Unix ms        |
// |           | (the adapter's, and the triggers'); a   | text: never through local time)   | (number)       |
// |           | column default's 2026-11-26 12:00:00;   |                                   |                |
// |           | Unix ms (as the migrator writes)        |                                   |                |
// | boolean   | 0 or 1                                  | BOOLEAN                           | boolean        |
//
// Timestamps are kept to the millisecond, as Prisma reads them into a Date
// and as TIMESTAMP(3) holds them. The checksum of the copy (row-checksum.ts)
// hashes the value in between, so both engines' reads are compared as the app sees them.

export type ColumnKind = "integer" | "text" | "timestamp" | "boolean";
export type Value = bigint | string | number | boolean | null;
export type Column = { name: string; kind: ColumnKind };

/** A value's place, for an error that tells the operator which row to look at. */
export type CellPlace = { table: string; column: string };

export class UnreadableValueError extends Error {
  override name = "UnreadableValueError";
}

const SQLITE_KINDS: Record<string, ColumnKind> = { BIGINT: "integer", INTEGER: "integer", TEXT: "text", DATETIME: "timestamp", BOOLEAN: "boolean" };
const POSTGRES_KINDS: Record<string, ColumnKind> = { int8: "integer", int4: "integer", text: "text", timestamp: "timestamp", bool: "boolean" };

/** The kind of a SQLite column by its declared type (PRAGMA table_info), or undefined for one the app never declares. */
export function sqliteColumnKind(declaredType: string): ColumnKind | undefined {
  return SQLITE_KINDS[declaredType.toUpperCase()];
}

/** The kind of a PostgreSQL column by its type's name (information_schema.columns.udt_name). */
export function postgresColumnKind(typeName: string): ColumnKind | undefined {
  return POSTGRES_KINDS[typeName];
}

// 2026-11-26T12:00:00.000+00:00, 2026-11-26 12:00:00, 2026-11-26T12:00:00Z, 2026-11-26: the forms
// SQLite's date functions and ISO 8601 writers give. No offset is UTC, as SQLite's own functions mean it.
const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Unix ms of a timestamp written as text, or undefined if it is none of the forms above. */
export function parseTimestampText(text: string): number | undefined {
  const match = TIMESTAMP_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", offset = "Z"] = match;
  // Milliseconds, as a Date keeps them: further digits are cut off, not rounded.
  const milliseconds = Number(fraction.slice(0, 3).padEnd(3, "0"));
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), milliseconds);
  const check = new Date(utc);
  // Date.UTC rolls February 30 over into March: a date that does not exist is not read as another one.
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  return utc - offsetMinutes(offset) * 60_000;
}

function offsetMinutes(offset: string): number {
  if (offset.toUpperCase() === "Z") return 0;
  const digits = offset.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
  return offset.startsWith("-") ? -minutes : minutes;
}

function unreadable(place: CellPlace, kind: ColumnKind, raw: unknown): UnreadableValueError {
  const shown = typeof raw === "string" ? JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw) : typeof raw === "bigint" ? `${raw}` : String(raw);
  return new UnreadableValueError(`${place.table}.${place.column} holds ${shown}, which is not a ${kind} as the app writes one`);
}

/** A value as better-sqlite3 read it (safe integers on), in between. */
export function fromSqlite(kind: ColumnKind, raw: unknown, place: CellPlace): Value {
  if (raw === null) return null;
  switch (kind) {
    case "integer":
      if (typeof raw === "bigint") return raw;
      break;
    case "text":
      if (typeof raw === "string") return raw;
      break;
    case "timestamp": {
      if (typeof raw === "bigint") return Number(raw);
      const ms = typeof raw === "string" ? parseTimestampText(raw) : undefined;
      if (ms !== undefined) return ms;
      break;
    }
    case "boolean":
      if (raw === 0n || raw === 1n) return raw === 1n;
      break;
  }
  throw unreadable(place, kind, raw);
}

/** A value in between, as the app writes it on SQLite. */
export function toSqlite(kind: ColumnKind, value: Value): bigint | string | number | null {
  if (value === null) return null;
  switch (kind) {
    case "timestamp":
      return sqliteTimestamp(value as number);
    case "boolean":
      return value ? 1 : 0;
    default:
      return value as bigint | string;
  }
}

/** How @prisma/adapter-better-sqlite3 writes a DateTime, and the outbox triggers (strftime('%Y-%m-%dT%H:%M:%f+00:00')). */
export function sqliteTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

// PostgreSQL's text for a timestamp without time zone, in the ISO DateStyle the copy's sessions set:
// 2026-11-26 12:00:00.123, trailing zeros of the fraction (and the fraction itself when 0) left out.
const POSTGRES_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

/** A value as pg read it (int8 and timestamp as their text), in between. */
export function fromPostgres(kind: ColumnKind, raw: unknown, place: CellPlace): Value {
  if (raw === null) return null;
  switch (kind) {
    case "integer":
      if (typeof raw === "string" && /^-?\d+$/.test(raw)) return BigInt(raw);
      if (typeof raw === "number" && Number.isInteger(raw)) return BigInt(raw);
      break;
    case "text":
      if (typeof raw === "string") return raw;
      break;
    case "timestamp": {
      // Prisma keeps DateTime as UTC in these columns: the text is read as UTC.
      const ms = typeof raw === "string" && POSTGRES_TIMESTAMP.test(raw) ? parseTimestampText(raw) : undefined;
      if (ms !== undefined) return ms;
      break;
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      break;
  }
  throw unreadable(place, kind, raw);
}

/** A value in between, as the text of an array element PostgreSQL casts to the column's type (pg quotes it). */
export function toPostgres(kind: ColumnKind, value: Value): string | boolean | null {
  if (value === null) return null;
  switch (kind) {
    case "integer":
      return (value as bigint).toString();
    case "timestamp":
      return new Date(value as number).toISOString().replace("T", " ").replace("Z", "");
    case "boolean":
      return value as boolean;
    default:
      return value as string;
  }
}

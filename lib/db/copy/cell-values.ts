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
  // The app's own forms first, without a regular expression: a million plants' times are read twice each.
  const usual = text.length === 23 || (text.length === 29 && text.endsWith("+00:00")) || (text.length === 24 && text.endsWith("Z")) ? usualTimestamp(text) : undefined;
  if (usual !== undefined) return usual;
  const match = TIMESTAMP_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", offset = "Z"] = match;
  // Milliseconds, as a Date keeps them: further digits are cut off, not rounded.
  const utc = utcTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, "0")));
  return utc === undefined ? undefined : utc - offsetMinutes(offset) * 60_000;
}

/** 2026-11-26T12:00:00.123 or 2026-11-26 12:00:00.123 at the start of `text`, read as UTC. */
function usualTimestamp(text: string): number | undefined {
  const separator = text.charCodeAt(10);
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (separator !== 84 && separator !== 32) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46) {
    return undefined;
  }
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const lastDigit = text.charCodeAt(22) - 48;
  if (year < 0 || !(lastDigit >= 0 && lastDigit <= 9)) return undefined;
  return utcTime(year, twoDigits(text, 5), twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14), twoDigits(text, 17), twoDigits(text, 20) * 10 + lastDigit);
}

/** The number two decimal digits at `at` make, or -1000 when they are not digits (which every range check then refuses). */
function twoDigits(text: string, at: number): number {
  const [tens, ones] = [text.charCodeAt(at) - 48, text.charCodeAt(at + 1) - 48];
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1000;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Unix ms of a UTC time, or undefined for one that does not exist (February 30, 24:00): Date.UTC would roll it over into another. */
function utcTime(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number | undefined {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
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
  return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
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
    case "timestamp": {
      const iso = new Date(value as number).toISOString();
      return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
    }
    case "boolean":
      return value as boolean;
    default:
      return value as string;
  }
}

import type Database from "better-sqlite3";

// "Contains, ignoring case" for plant search (GET /plants?q=), the same on
// both engines. Both lower the text and the needle, Unicode-aware, and look
// for the needle with a plain substring search (instr, strpos), so %, _ and \
// are ordinary characters: no LIKE pattern is ever built from user input.
//
// SQLite's own lower() and LIKE fold ASCII only ("ÉCOLE" stays "ÉCOLE"), so
// the direct-read connection gets a JS function: String.prototype.toLowerCase,
// Unicode's full lowercase mapping from Node's ICU. PostgreSQL's lower()
// follows the database's LC_CTYPE, which may be C (ASCII only); the ICU root
// collation ("und-x-icu", present wherever PostgreSQL is built with ICU, as
// the common packages and managed services are) makes it the same mapping as
// JavaScript's, final sigma included, whatever the database's locale.

/** The SQLite function's name; registered on the direct-read connection. */
const SQLITE_LOWER = "unicode_lower";

export function registerUnicodeLower(connection: Database.Database): void {
  // Deterministic: SQLite may compute it once for a constant argument (the needle).
  connection.function(SQLITE_LOWER, { deterministic: true }, (value: unknown) => (typeof value === "string" ? value.toLowerCase() : value));
}

/** A condition, in each engine's SQL, that a column contains one bound value (`?`), ignoring case. */
export function containsIgnoringCase(column: string): { sqlite: string; postgres: string } {
  return {
    sqlite: `instr(${SQLITE_LOWER}(${column}), ${SQLITE_LOWER}(?)) > 0`,
    postgres: `strpos(lower(${column} COLLATE "und-x-icu"), lower(?::text COLLATE "und-x-icu")) > 0`,
  };
}

/**
 * Sort keys, in each engine's SQL, that order a column's texts ignoring case,
 * alike on both engines: by the Unicode lowercase of the text (the mapping
 * containsIgnoringCase uses), then by the text itself, each in code point
 * order. SQLite compares text as UTF-8 bytes (its BINARY collation), which is
 * code point order; PostgreSQL does so under the "C" collation, whereas the
 * database's own collation (a locale's) would order differently from SQLite.
 * Code point order puts "Zebra" after "aloe" only once both are lowercased,
 * and accented letters after z: plain, and the same wherever it runs.
 */
export function ignoringCaseOrder(column: string): { sqlite: string[]; postgres: string[] } {
  return {
    sqlite: [`${SQLITE_LOWER}(${column})`, column],
    postgres: [`lower(${column} COLLATE "und-x-icu") COLLATE "C"`, `${column} COLLATE "C"`],
  };
}

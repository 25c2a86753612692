import { describe, expect, it } from "vitest";
import { fromPostgres, fromSqlite, parseTimestampText, toPostgres, toSqlite, UnreadableValueError } from "@/lib/db/copy/cell-values";
import { canonicalRow, RowChecksum } from "@/lib/db/copy/row-checksum";

// The values between the engines' representations: each form a timestamp
// takes in SQLite (the adapter's and the triggers', a column default's, the
// migrator's Unix ms) is the instant the app reads from it.

const place = { table: "plants", column: "created_at" };
const NOON = Date.UTC(2026, 10, 26, 12, 0, 0, 123);

describe("a timestamp", () => {
  it.each([
    ["2026-11-26T12:00:00.123+00:00", NOON],
    ["2026-11-26T12:00:00.123Z", NOON],
    ["2026-11-26T13:30:00.123+01:30", NOON],
    ["2026-11-26T07:00:00.123-0500", NOON],
    ["2026-11-26 12:00:00.123", NOON],
    ["2026-11-26T12:00:00.123", NOON],
    ["2024-02-29T12:00:00.123+00:00", Date.UTC(2024, 1, 29, 12, 0, 0, 123)],
    ["2026-11-26T12:00:00.1239+00:00", NOON],
    ["2026-11-26 12:00:00", NOON - 123],
    ["2026-11-26 12:00", NOON - 123],
    ["2026-11-26", Date.UTC(2026, 10, 26)],
  ])("written in SQLite as %s is read as the instant the app reads", (text, ms) => {
    expect(parseTimestampText(text)).toBe(ms);
    expect(fromSqlite("timestamp", text, place)).toBe(ms);
  });

  it("written as Unix milliseconds in SQLite is that instant", () => {
    expect(fromSqlite("timestamp", BigInt(NOON), place)).toBe(NOON);
  });

  it.each(["2026-02-30 12:00:00", "2026-02-29T12:00:00.000+00:00", "2026-11-26T12:00:0x.123+00:00", "2026-11-26 24:00:00", "yesterday", "1795696055904", ""])("refuses %j, naming the column", (text) => {
    expect(parseTimestampText(text)).toBeUndefined();
    expect(() => fromSqlite("timestamp", text, place)).toThrow(new UnreadableValueError(`plants.created_at holds ${JSON.stringify(text)}, which is not a timestamp as the app writes one`));
  });

  it("is read from PostgreSQL's text as UTC, and written back in each engine's form", () => {
    expect(fromPostgres("timestamp", "2026-11-26 12:00:00.123", place)).toBe(NOON);
    expect(fromPostgres("timestamp", "2026-11-26 12:00:00", place)).toBe(NOON - 123);
    expect(toSqlite("timestamp", NOON)).toBe("2026-11-26T12:00:00.123+00:00");
    expect(toPostgres("timestamp", NOON)).toBe("2026-11-26 12:00:00.123");
    expect(() => fromPostgres("timestamp", "infinity", place)).toThrow(UnreadableValueError);
  });
});

describe("integers and booleans", () => {
  it("keep every bit of an int64, both ways", () => {
    for (const id of [-9223372036854775808n, 9223372036854775807n, 9007199254740993n]) {
      expect(fromSqlite("integer", id, place)).toBe(id);
      expect(fromPostgres("integer", id.toString(), place)).toBe(id);
      expect(toPostgres("integer", id)).toBe(id.toString());
      expect(toSqlite("integer", id)).toBe(id);
    }
    expect(fromPostgres("integer", 7, place)).toBe(7n);
  });

  it("are 0 and 1 on SQLite, true and false on PostgreSQL", () => {
    expect(fromSqlite("boolean", 1n, place)).toBe(true);
    expect(fromSqlite("boolean", 0n, place)).toBe(false);
    expect(() => fromSqlite("boolean", 2n, place)).toThrow(UnreadableValueError);
    expect(toSqlite("boolean", true)).toBe(1);
    expect(toPostgres("boolean", false)).toBe(false);
  });
});

describe("a row's checksum", () => {
  const columns = [
    { name: "id", kind: "integer" as const },
    { name: "name", kind: "text" as const },
    { name: "tag", kind: "text" as const },
  ];

  it("tells apart values that would run together as text", () => {
    expect(canonicalRow(columns, [1n, "a;", "b"])).not.toBe(canonicalRow(columns, [1n, "a", ";b"]));
    expect(canonicalRow(columns, [1n, "a", null])).not.toBe(canonicalRow(columns, [1n, "a", ""]));
  });

  it("does not depend on the order rows are read in, and changes with any one value", () => {
    const rows: [bigint, string, string | null][] = [
      [1n, "Fern", null],
      [2n, "Ёлка 🌲", "日本"],
      [9223372036854775807n, "Highest", "edge"],
    ];
    const sum = (order: typeof rows) => {
      const checksum = new RowChecksum();
      for (const row of order) checksum.add(columns, row);
      return checksum.hex();
    };
    expect(sum([...rows].reverse())).toBe(sum(rows));
    expect(sum([rows[0]!, rows[1]!, [9223372036854775807n, "Highest", "Edge"]])).not.toBe(sum(rows));
    expect(sum(rows.slice(1))).not.toBe(sum(rows));
  });
});

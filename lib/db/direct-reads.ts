import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import type { DatabaseConfig } from "@/lib/db/database-url";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sqlite";
import { registerUnicodeLower } from "@/lib/db/text-match";
import { env } from "@/lib/server/env";
import { processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

// The API's hot reads (the token check on every request, a page of plants, one
// plant), run on the database driver itself rather than through Prisma.
// Measured under load (issue 12): one Prisma raw query costs about 0.3 ms of
// CPU, a quarter of the whole request, where the same prepared statement on
// better-sqlite3 costs 5 to 20 µs. Everything else, and every write, goes
// through the one Prisma client.
//
// SQLite: a read-only connection of its own. In WAL mode its reads never wait
// for the writer and see every committed write at once (each statement is its
// own read transaction), so a revocation committed on the Prisma connection
// is seen by the very next request; and nothing on it can join a transaction
// the Prisma connection has open. PostgreSQL: the very pool the Prisma adapter
// uses, so the instance holds no more connections than before.

/** A column's value as the driver gives it: SQLite integers are bigints (safe integers), PostgreSQL int8s are strings. */
export type Cell = string | bigint | number | Date | null;
export type DirectRow = Record<string, Cell>;

/**
 * A parameterised SELECT, written once with `?` placeholders (SQLite's
 * spelling; PostgreSQL's `$1`, `$2` are derived from it) and column names both
 * engines quote alike. Where the engines' SQL must differ (a function only one
 * has), the PostgreSQL text is given too, with its `?`s in the same order.
 */
export type DirectQuery = { sql: string; postgres: string; postgresName: string };

export function directQuery(sql: string, postgresSql = sql): DirectQuery {
  let index = 0;
  const postgres = postgresSql.replace(/\?/g, () => `$${++index}`);
  return { sql, postgres, postgresName: preparedStatementName(postgres) };
}

/**
 * PostgreSQL prepares each direct read once per connection, under a name
 * derived from its text: the server then neither parses nor plans it again,
 * and the client sends only the values (on this machine the database server
 * shares the two cores with the app). From the text, because the server and
 * Next's bundles each hold their own copy of this module on one pool, and a
 * name must never stand for two texts. The texts are a fixed handful
 * (plant-search.ts keeps one per shape of search), so each connection holds
 * a handful of statements.
 */
function preparedStatementName(text: string): string {
  return `plant_store_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
}

type Values = (string | bigint | number)[];
/** keep: false reads past SQLite's kept answers, for reads too large to keep (an export's pages). */
type ReadOptions = { keep?: boolean };

export type Reader = { all(query: DirectQuery, values: Values, options?: ReadOptions): Promise<DirectRow[]>; close(): Promise<void> };

/** The rows a read answers now, on the configured database. */
export function readRows(query: DirectQuery, values: Values, options?: ReadOptions): Promise<DirectRow[]> {
  return reader().all(query, values, options);
}

function reader(): Reader {
  return processGlobal("db.reader", () => createReader(env().database));
}

/** Closes the reader's connection, if this process opened one (at shutdown). */
export async function closeDirectReads(): Promise<void> {
  await takeProcessGlobal<Reader>("db.reader")?.close();
}

function createReader(database: DatabaseConfig): Reader {
  if (database.provider === "sqlite") return sqliteReader(database.path);
  return readerLoadedOnFirstUse(async () => (await import("@/lib/db/postgres-reads")).postgresReader(database.url));
}

/**
 * A reader whose module loads with its first read: pg takes about 0.1 s of
 * CPU to load, which every operator CLI paid on SQLite too (issue 20). Once
 * loaded, a read costs one call more.
 */
function readerLoadedOnFirstUse(load: () => Promise<Reader>): Reader {
  let loaded: Reader | undefined;
  let loading: Promise<Reader> | undefined;
  return {
    all(query, values, options) {
      if (loaded) return loaded.all(query, values, options);
      loading ??= load().then((reader) => (loaded = reader));
      return loading.then((reader) => reader.all(query, values, options));
    },
    async close() {
      await (await loading)?.close();
    },
  };
}

// Answers kept by the SQLite reader, by query and values; a few kB each.
const SQLITE_KEPT_ANSWERS = 1_000;

/**
 * SQLite's reader keeps each answer until the database changes. PRAGMA
 * data_version (about 2 µs) changes whenever any other connection commits,
 * the app's own Prisma connection and other processes (the token CLI) alike,
 * so an answer kept under an unchanged version is exactly what the query
 * would read again: a revocation is still seen by the very next request.
 */
function sqliteReader(path: string): Reader {
  // The app's start-up has created the file and put it in WAL mode before any request.
  const connection = new Database(path, { readonly: true, fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  connection.defaultSafeIntegers(true);
  registerUnicodeLower(connection);
  const dataVersion = connection.prepare<[], bigint>("PRAGMA data_version").pluck();
  const statements = new Map<string, Database.Statement<unknown[], DirectRow>>();
  const kept = new Map<string, DirectRow[]>();
  let keptVersion: bigint | undefined;
  const statementFor = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare<unknown[], DirectRow>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    async all(query, values, { keep = true } = {}) {
      if (!keep) return statementFor(query.sql).all(...values);
      const version = dataVersion.get();
      if (version !== keptVersion) {
        kept.clear();
        keptVersion = version;
      }
      const key = answerKey(query, values);
      let rows = kept.get(key);
      if (!rows) {
        rows = statementFor(query.sql).all(...values);
        // A Map iterates in insertion order: the first key is the oldest.
        if (kept.size >= SQLITE_KEPT_ANSWERS) kept.delete(kept.keys().next().value!);
        kept.set(key, rows);
      }
      return rows;
    },
    async close() {
      connection.close();
    },
  };
}

/** Unambiguous: each value is tagged with its type (5, 5n and "5" bind differently) and its length. */
function answerKey(query: DirectQuery, values: Values): string {
  let key = query.sql;
  for (const value of values) {
    const text = String(value);
    key += `\0${typeof value}:${text.length}:${text}`;
  }
  return key;
}

/** An integer column as a bigint, whichever engine read it. */
export function bigintCell(value: Cell | undefined): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "string" || typeof value === "number") return BigInt(value);
  throw unexpected("an integer", value);
}

export function stringCell(value: Cell | undefined): string {
  if (typeof value === "string") return value;
  throw unexpected("a text", value);
}

export function optionalStringCell(value: Cell | undefined): string | null {
  return value === null ? null : stringCell(value);
}

// SQLite keeps Prisma's DateTime as ISO 8601 text with an offset; a value
// written by a column default (CURRENT_TIMESTAMP) is UTC without one.
const SQLITE_UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/;

/** A timestamp column as a Date: PostgreSQL gives Dates, SQLite text (or Unix milliseconds). */
export function dateCell(value: Cell | undefined): Date {
  if (value instanceof Date) return value;
  if (typeof value === "bigint" || typeof value === "number") return new Date(Number(value));
  if (typeof value === "string") return new Date(SQLITE_UTC_TIMESTAMP.test(value) ? `${value.replace(" ", "T")}Z` : value);
  throw unexpected("a timestamp", value);
}

export function optionalDateCell(value: Cell | undefined): Date | null {
  return value === null ? null : dateCell(value);
}

// A read that names a column it did not select, or a column of another type: a bug, not bad input.
function unexpected(kind: string, value: Cell | undefined): TypeError {
  return new TypeError(`expected ${kind} column, got ${value === null ? "null" : value === undefined ? "no such column" : typeof value}`);
}

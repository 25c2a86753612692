import type { Column, Value } from "@/lib/db/copy/cell-values";

// The two ends of a copy (issue 23), each engine's in a module of its own
// (sqlite-copy-ends.ts, postgres-copy-ends.ts): the source, read as one
// consistent snapshot and never written, and the target, written in one
// transaction that commits only once what it holds has been read back and
// verified. Values travel between them in the engine-free form of
// cell-values.ts.

/** Rows travel in batches of this many: one INSERT on PostgreSQL, one page read; a few MB of memory at most. */
export const ROWS_PER_BATCH = 5_000;

/** A column of a table and the engine's own type for it (for PostgreSQL's casts). */
export type EngineColumn = Column & { type: string };

/** A single-column foreign key, as the migrations make them all. */
export type ForeignKey = { table: string; column: string; parent: string; parentColumn: string };

export interface CopyEnd {
  /** The database for messages, without credentials. */
  readonly description: string;
  /** The migrations applied, by name in order; null when the database was never migrated (no _prisma_migrations). */
  appliedMigrations(): Promise<string[] | null>;
  /** The tables, by name (the engine's own aside: sqlite_sequence). */
  tableNames(): Promise<string[]>;
  /** A table's columns, in their order. */
  columns(table: string): Promise<EngineColumn[]>;
  rowCount(table: string): Promise<number>;
  /** The table's rows in batches, each row's values in `columns`' order; in whatever order the engine reads them fastest. */
  rows(table: string, columns: readonly EngineColumn[]): AsyncIterable<Value[][]>;
  close(): Promise<void>;
}

export interface CopySource extends CopyEnd {
  foreignKeys(): Promise<ForeignKey[]>;
  /** How many of the table's rows name a parent that does not exist (left by a delete with foreign keys off). */
  danglingRows(key: ForeignKey): Promise<number>;
  /** The last id the database gave in a generated-id column (its counter, or the highest id left if higher); null if none. */
  lastGeneratedId(table: string, column: string): Promise<bigint | null>;
  /** How many plant changes have no position in the feed yet (PostgreSQL's, committed and not stamped); none on SQLite. */
  unstampedChanges(): Promise<number>;
}

export interface CopyTarget extends CopyEnd {
  /** Why this database cannot take a copy at all (an encoding that would change text, say), or null. */
  unsuitable(): Promise<string | null>;
  /** Starts the one transaction the copy writes in, with `tables` kept from other writers until it ends. */
  begin(tables: readonly string[]): Promise<void>;
  /**
   * Writes the rows after every batch given before them. Called again before the last call's promise
   * settles, so that the next batch is ready when the database is (the rows are encoded at the call).
   */
  insert(table: string, columns: readonly EngineColumn[], rows: readonly Value[][]): Promise<void>;
  /**
   * Removes every row of the table, in the copy's transaction, as if they had never been written (an
   * AUTOINCREMENT counter forgets them too): the rows the target's own triggers wrote there while the
   * copy wrote other tables (TRIGGER_FILLED_TABLES in copied-tables.ts). Called once no insert is under way.
   */
  emptyTable(table: string): Promise<void>;
  /** Makes the database's next generated id in the column come after `last` (and after every id the table holds). */
  continueGeneratedIds(table: string, column: string, last: bigint | null): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** The later of two ids, either of which may be missing. */
export function laterId(a: bigint | null, b: bigint | null): bigint | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

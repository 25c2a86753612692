import { existsSync, realpathSync } from "node:fs";
import { COPIED_TABLES, type CopiedTable, GENERATED_IDS, SKIPPED_TABLES, TRIGGER_FILLED_TABLES } from "@/lib/db/copy/copied-tables";
import type { Value } from "@/lib/db/copy/cell-values";
import type { CopyEnd, CopySource, CopyTarget, EngineColumn } from "@/lib/db/copy/copy-ends";
import { migrateCommand } from "@/lib/db/copy/migrate-command";
import { RowChecksum } from "@/lib/db/copy/row-checksum";
import { type DatabaseConfig, describeDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/db/migrate";
import { listMigrations } from "@/lib/db/migrations";
import { describeWriteFailure, failureCause } from "@/lib/db/write-failure";

// `db copy` (issue 23): everything the app keeps, from the configured
// database into an empty one of either engine, in the target's own schema.
//
// - The source is read as one snapshot and never written (sqlite-copy-ends.ts,
//   postgres-copy-ends.ts say how, per engine), but for one thing its own app
//   would do anyway: a PostgreSQL source's committed plant changes are given
//   their positions in the change feed before the snapshot is taken.
// - The target is written in ONE transaction, and verified inside it before
//   COMMIT: each table read back, its rows counted and checksummed
//   (row-checksum.ts) the same way as the source's were read. A copy that is
//   interrupted (Ctrl-C, kill -9, a lost connection) or does not verify
//   leaves the target exactly as it was, empty, so it never looks complete.
//   A single transaction holds a million plants well on both engines (about
//   twice the table's size in SQLite's WAL, or in PostgreSQL's heap and WAL,
//   until COMMIT), so no staging tables or resumable batches are needed.
// - An empty target (a fresh createdb, a new or empty SQLite file) is
//   migrated first, as `npm run db:migrate` would: a copy interrupted after
//   that leaves it migrated and still empty, ready for the next attempt.
// - It refuses a target that holds rows, or tables of something else, or is
//   at other migrations than the source's, before writing anything.

export type TableReport = { table: string; sourceRows: number; targetRows: number; sourceChecksum: string; targetChecksum: string; matches: boolean };

export type CopyResult = {
  source: string;
  target: string;
  tables: TableReport[];
  /** Tables not copied, on purpose: name and why. */
  skipped: [string, string][];
  /** Tables in the source that are not the app's (made by hand): not copied. */
  foreign: string[];
  /** Where each generated id goes on in the target. */
  generatedIds: { table: string; column: string; next: bigint }[];
  /** The migrations the copy applied to the target, which was empty; none when it came migrated. */
  migratedTarget: string[];
  copyMs: number;
  verifyMs: number;
};

/** What a copy tells as it goes; a terminal shows it, a script need not. */
export type CopyProgress = {
  /** The target was empty, and has been migrated: these migrations were applied. */
  migrated?(applied: readonly string[]): void;
  /** The target's transaction has begun and is empty: rows are about to be written. */
  started?(tables: readonly { table: string; rows: number }[]): void;
  copying?(table: string, done: number, total: number): void;
  verifying?(table: string, done: number, total: number): void;
  verified?(report: TableReport): void;
  /** Verified: COMMIT is under way, and an interruption now may or may not keep the copy. */
  committing?(): void;
};

/** The copy would not start; nothing was written. */
export class CopyRefusedError extends Error {
  override name = "CopyRefusedError";
}

/** The target did not read back as the source was read; nothing was committed. */
export class CopyVerificationError extends Error {
  override name = "CopyVerificationError";
  constructor(readonly tables: TableReport[]) {
    const differing = tables.filter((report) => !report.matches).map((report) => report.table);
    super(`the copy did not verify (${differing.join(", ")} differ): nothing was committed, the target is as it was`);
  }
}

export type CopyTargetConfig = { config: DatabaseConfig; url: string };

export async function copyDatabase(source: DatabaseConfig, target: CopyTargetConfig, progress: CopyProgress = {}): Promise<CopyResult> {
  if (sameDatabase(source, target.config)) throw new CopyRefusedError(`the target is the configured database itself (${describeDatabase(source)}); name another`);
  const from = await openSource(source);
  try {
    // Before the target is touched: a source the copy refuses leaves it as it was, unmigrated.
    await checkSourceMigrations(from, source);
    await checkForeignKeys(from);
    await checkChangesStamped(from, target.config);
    try {
      const to = await openTarget(target);
      try {
        return await copyBetween(from, to, target, progress);
      } finally {
        await to.close();
      }
    } catch (error) {
      throw targetWriteFailure(target.config, error);
    }
  } finally {
    await from.close();
  }
}

async function openSource(source: DatabaseConfig): Promise<CopySource> {
  if (source.provider === "postgresql") return (await import("@/lib/db/copy/postgres-copy-ends")).openPostgresSource(source.url);
  if (!existsSync(source.path)) throw new CopyRefusedError(`there is no database at ${source.path} to copy (DATABASE_URL, DATA_DIR)`);
  return (await import("@/lib/db/copy/sqlite-copy-ends")).openSqliteSource(source.path);
}

async function openTarget({ config }: CopyTargetConfig): Promise<CopyTarget> {
  if (config.provider === "postgresql") return (await import("@/lib/db/copy/postgres-copy-ends")).openPostgresTarget(config.url);
  return (await import("@/lib/db/copy/sqlite-copy-ends")).openSqliteTarget(config.path);
}

/** A SQLite target's full disk or unwritable folder, named as such: SQLite's words name neither ("database or disk is full"). */
function targetWriteFailure(target: DatabaseConfig, error: unknown): unknown {
  if (target.provider !== "sqlite") return error;
  const described = describeWriteFailure(target.path, failureCause(error));
  return described === undefined ? error : new Error(`${described}; nothing was committed`);
}

function sameDatabase(a: DatabaseConfig, b: DatabaseConfig): boolean {
  if (a.provider === "sqlite" && b.provider === "sqlite") return existsSync(a.path) && existsSync(b.path) ? realpathSync(a.path) === realpathSync(b.path) : a.path === b.path;
  return a.provider === b.provider && describeDatabase(a) === describeDatabase(b);
}

async function copyBetween(from: CopySource, to: CopyTarget, target: CopyTargetConfig, progress: CopyProgress): Promise<CopyResult> {
  const unsuitable = await to.unsuitable();
  if (unsuitable) throw new CopyRefusedError(`the target ${to.description} cannot take the copy: ${unsuitable}`);
  const migratedTarget = await migrateIfEmpty(to, target.config);
  if (migratedTarget.length > 0) progress.migrated?.(migratedTarget);
  await checkTargetMigrations(to, target);
  const { columns, foreign } = await matchColumns(from, to);

  await to.begin(COPIED_TABLES);
  try {
    await checkEmpty(to);
    const totals: { table: CopiedTable; rows: number }[] = [];
    for (const table of COPIED_TABLES) totals.push({ table, rows: await from.rowCount(table) });
    progress.started?.(totals);

    const copyStart = performance.now();
    const sourceChecksums = new Map<string, RowChecksum>();
    for (const { table, rows } of totals) {
      // The target's triggers wrote rows of their own there as the tables before it were copied.
      if (TRIGGER_FILLED_TABLES.includes(table)) await to.emptyTable(table);
      sourceChecksums.set(table, await copyTable(from, to, table, columns.get(table)!, (done) => progress.copying?.(table, done, rows)));
    }
    const generatedIds = [];
    for (const { table, column } of GENERATED_IDS) {
      const last = await from.lastGeneratedId(table, column);
      await to.continueGeneratedIds(table, column, last);
      generatedIds.push({ table, column, next: (last ?? 0n) + 1n });
    }
    const copyMs = performance.now() - copyStart;

    const verifyStart = performance.now();
    const reports = await verify(to, totals, columns, sourceChecksums, progress);
    if (reports.some((report) => !report.matches)) throw new CopyVerificationError(reports);
    const verifyMs = performance.now() - verifyStart;

    progress.committing?.();
    await to.commit();
    return {
      source: from.description,
      target: to.description,
      tables: reports,
      skipped: Object.entries(SKIPPED_TABLES),
      foreign,
      generatedIds,
      migratedTarget,
      copyMs,
      verifyMs,
    };
  } catch (error) {
    await to.rollback().catch(() => {});
    throw error;
  }
}

/** Reads each table back from the target, in its transaction, and compares it with the source's rows as they were read. */
async function verify(
  to: CopyTarget,
  totals: readonly { table: string; rows: number }[],
  columns: ReadonlyMap<string, TableColumns>,
  sourceChecksums: ReadonlyMap<string, RowChecksum>,
  progress: CopyProgress,
): Promise<TableReport[]> {
  const reports: TableReport[] = [];
  for (const { table, rows } of totals) {
    const read = await checksumOf(to, table, columns.get(table)!.target, (done) => progress.verifying?.(table, done, rows));
    const written = sourceChecksums.get(table)!;
    const report = {
      table,
      sourceRows: written.rows,
      targetRows: read.rows,
      sourceChecksum: written.hex(),
      targetChecksum: read.hex(),
      matches: written.rows === read.rows && written.hex() === read.hex(),
    };
    progress.verified?.(report);
    reports.push(report);
  }
  return reports;
}

/** The source at exactly this build's migrations: the tables and columns copied are the ones it knows. The copy never migrates the source. */
async function checkSourceMigrations(from: CopySource, source: DatabaseConfig): Promise<void> {
  const known = migrationNames(source.provider);
  const applied = (await from.appliedMigrations()) ?? [];
  if (sameNames(applied, known)) return;
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new CopyRefusedError(`the source has migrations this build does not know (${unknown.join(", ")}): copy with the build that made them`);
  throw new CopyRefusedError(
    `the source ${from.description} is at migration ${latest(applied)}, this build's latest is ${latest(known)}: ` +
      "start the app on it once, or run npm run db:migrate with its configuration, then copy",
  );
}

/**
 * Migrates the target if it is empty: no tables at all, or only a _prisma_migrations that records none
 * (a fresh createdb, a new SQLite file). Answers the migrations applied; none for a target that holds anything.
 */
async function migrateIfEmpty(to: CopyTarget, target: DatabaseConfig): Promise<string[]> {
  const tables = (await to.tableNames()).filter((table) => table !== "_prisma_migrations");
  if (tables.length > 0 || ((await to.appliedMigrations()) ?? []).length > 0) return [];
  // The migrator's own connection, as npm run db:migrate's: the target's is idle, in no transaction.
  return migrate(target);
}

/** The target at exactly this build's migrations, as the source is (checkSourceMigrations). */
async function checkTargetMigrations(to: CopyTarget, target: CopyTargetConfig): Promise<void> {
  // Each engine has its own folder of migrations, under the same names (docs/development.md).
  const known = migrationNames(target.config.provider);
  const applied = await to.appliedMigrations();
  if (applied !== null && sameNames(applied, known)) return;
  if (applied === null || applied.length === 0) {
    const tables = (await to.tableNames()).filter((table) => table !== "_prisma_migrations");
    throw new CopyRefusedError(`the target ${to.description} is not empty: it holds tables no migration of this app made (${tables.join(", ")}). Copy into an empty database`);
  }
  if (applied.every((name) => known.includes(name)) && known.slice(0, applied.length).every((name, index) => name === applied[index])) {
    throw new CopyRefusedError(
      `the target ${to.description} is at migration ${latest(applied)}, the source at ${latest(known)}; migrate it first, then copy:\n\n  ${migrateCommand(target.config, target.url)}`,
    );
  }
  throw new CopyRefusedError(
    `the target ${to.description} has migrations the source does not (${applied.filter((name) => !known.includes(name)).join(", ") || "another order"}): ` +
      "copy into an empty database migrated by this build",
  );
}

const migrationNames = (provider: DatabaseConfig["provider"]) => listMigrations(provider).map((migration) => migration.name);
const latest = (applied: readonly string[]) => applied.at(-1) ?? "none";

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

type TableColumns = { source: EngineColumn[]; target: EngineColumn[] };

/** Each copied table's columns in the target's order, with the source's columns read in that same order. */
async function matchColumns(from: CopyEnd, to: CopyEnd): Promise<{ columns: Map<string, TableColumns>; foreign: string[] }> {
  const [sourceTables, targetTables] = [await from.tableNames(), await to.tableNames()];
  const columns = new Map<string, TableColumns>();
  for (const table of COPIED_TABLES) {
    if (!sourceTables.includes(table) || !targetTables.includes(table)) {
      throw new CopyRefusedError(`${sourceTables.includes(table) ? "the target" : "the source"} has no table ${table}, though its migrations make one`);
    }
    const [sourceColumns, targetColumns] = [await from.columns(table), await to.columns(table)];
    const byName = new Map(sourceColumns.map((column) => [column.name, column]));
    const ordered = targetColumns.map((column) => byName.get(column.name));
    const mismatch = targetColumns.find((column, index) => ordered[index]?.kind !== column.kind);
    if (mismatch || sourceColumns.length !== targetColumns.length) {
      const named = mismatch?.name ?? sourceColumns.find((column) => !targetColumns.some((other) => other.name === column.name))?.name;
      throw new CopyRefusedError(`the column ${table}.${named} differs between the source and the target, though both are at the same migrations: were they changed by hand?`);
    }
    columns.set(table, { source: ordered as EngineColumn[], target: targetColumns });
  }
  const known = new Set<string>([...COPIED_TABLES, ...Object.keys(SKIPPED_TABLES)]);
  return { columns, foreign: sourceTables.filter((table) => !known.has(table)) };
}

/** Rows whose parent is gone (deleted with foreign keys off) would be refused by the target: the operator decides, not the copy. */
async function checkForeignKeys(from: CopySource): Promise<void> {
  const dangling: string[] = [];
  for (const key of await from.foreignKeys()) {
    const count = await from.danglingRows(key);
    if (count === 0) continue;
    dangling.push(
      `  ${key.table}.${key.column} -> ${key.parent}: ${count} ${count === 1 ? "row" : "rows"}; the app ignores them. To remove them (the app stopped):\n` +
        `    DELETE FROM ${key.table} WHERE ${key.column} IS NOT NULL AND ${key.column} NOT IN (SELECT ${key.parentColumn} FROM ${key.parent});`,
    );
  }
  if (dangling.length > 0) {
    throw new CopyRefusedError(`the source holds rows whose foreign key names nothing, which the target would refuse:\n${dangling.join("\n")}\nThen copy again.`);
  }
}

/**
 * Into SQLite, every change the source holds has its position in the feed. A PostgreSQL source's are stamped
 * as the copy opens it (postgres-copy-ends.ts), but a change its app committed a moment after that is in the
 * snapshot without one, and SQLite never stamps: the feed's clients would never see it. A PostgreSQL target's
 * instances stamp such changes, as the source's would have: they are copied as they are.
 */
async function checkChangesStamped(from: CopySource, target: DatabaseConfig): Promise<void> {
  if (target.provider !== "sqlite") return;
  const unstamped = await from.unstampedChanges();
  if (unstamped === 0) return;
  throw new CopyRefusedError(
    `the source ${from.description} holds ${unstamped === 1 ? "a change to plants" : `${unstamped.toLocaleString("en-US")} changes to plants`} committed as the copy began, ` +
      "still without a position in the change feed, which a SQLite target would never give: the app is still writing to it. Stop it, then copy again",
  );
}

async function checkEmpty(to: CopyTarget): Promise<void> {
  const filled: string[] = [];
  for (const table of COPIED_TABLES) {
    const rows = await to.rowCount(table);
    if (rows > 0) filled.push(`${table} (${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"})`);
  }
  if (filled.length > 0) {
    throw new CopyRefusedError(`the target ${to.description} is not empty: ${filled.join(", ")}. Copy into an empty database, freshly migrated`);
  }
}

/** Streams one table from the source into the target, batch by batch, checksumming the source's rows as read. */
async function copyTable(from: CopySource, to: CopyTarget, table: string, columns: TableColumns, copied: (done: number) => void): Promise<RowChecksum> {
  const checksum = new RowChecksum();
  // The next batch is read, and handed to the target, while the last one is written: the source's read and
  // the target's write overlap, and at most two batches are in memory.
  let writing: Promise<void> = Promise.resolve();
  for await (const batch of from.rows(table, columns.source)) {
    for (const values of batch) checksum.add(columns.source, values);
    const next = to.insert(table, columns.target, batch);
    // Awaited on the next turn or after the loop; a failure meanwhile is not an unhandled rejection.
    next.catch(() => {});
    await writing;
    copied(checksum.rows - batch.length);
    writing = next;
  }
  await writing;
  copied(checksum.rows);
  return checksum;
}

async function checksumOf(end: CopyEnd, table: string, columns: readonly EngineColumn[], read: (done: number) => void): Promise<RowChecksum> {
  const checksum = new RowChecksum();
  for await (const batch of end.rows(table, columns)) {
    for (const values of batch as Value[][]) checksum.add(columns, values);
    read(checksum.rows);
  }
  return checksum;
}

import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { databaseOutage } from "@/lib/db/database-outage";
import { checksum, type Migration, pendingMigrations } from "@/lib/db/migrations";

// SQLite, the embedded default: the Prisma driver adapter with the settings
// that make a 200 durable, and the migrator.

// WAL lets readers run beside the one writer; synchronous=FULL fsyncs the WAL
// on every commit, so a 200 means the row survives a power loss
// (better-sqlite3 otherwise runs WAL with NORMAL, which may lose the last commits).
// wal_autocheckpoint is raised from 1,000 pages: the server checkpoints off the
// event loop (lib/db/sqlite-checkpoints.ts), and this is the safety net that
// bounds the WAL (about 40 MB) where it does not.
export const SQLITE_PRAGMAS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 10000;";

// How long a writer waits for another process's lock (the token CLI, a second
// instance, another worker) before SQLITE_BUSY. better-sqlite3's own wait (its
// `timeout`) blocks its thread; the app's connection waits without blocking
// (waitWhileBusy below), the others (direct reads, checkpoints, CLIs) block.
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

// The adapter opens its connection itself; the pragmas are applied to it here,
// its statements are kept prepared, and statements wait for transactions. It
// is opened with a busy timeout of 0: SQLITE_BUSY comes back at once, and is
// waited out on timers instead (waitForTransactions).
class DurableSqliteAdapter extends PrismaBetterSqlite3 {
  /** Writes in one synchronous step on the connection opened last (writeNow, below); undefined until Prisma connects. */
  writeNow: WriteNow | undefined;

  override async connect() {
    const adapter = await super.connect();
    const connection = (adapter as unknown as { client: Database.Database }).client;
    // The pragmas may be applied twice: a retry after BUSY repeats nothing that matters.
    const applyPragmas = () => adapter.executeScript(SQLITE_PRAGMAS);
    await applyPragmas().catch((error: unknown) => waitWhileBusy(error, applyPragmas, Date.now() + SQLITE_BUSY_TIMEOUT_MS));
    const step = writeStep(connection);
    keepStatementsPrepared(connection);
    this.writeNow = waitForTransactions(adapter, connection, step);
    return adapter;
  }
}

/** A SQL text with `?` placeholders and its values, as Prisma.sql builds it for SQLite. */
export type SqlQuery = { sql: string; values: unknown[] };

/**
 * The statements of a synchronous write (writeNow): each runs at once on the
 * adapter's connection, kept prepared by its text, its values bound as the
 * adapter binds them, integers read as bigints (the adapter's default on it).
 */
export type WriteStep = {
  all<Row>(query: SqlQuery): Row[];
  /** Runs a statement that answers no rows; answers how many rows it changed (not counting its triggers'). */
  run(query: SqlQuery): number;
};

/**
 * Runs `step` as one transaction that holds SQLite's write lock only to
 * write and sync: BEGIN IMMEDIATE (waited for on timers while another
 * process holds the lock), then the step's statements and COMMIT in one turn
 * of the event loop, with nothing awaited between. If the step throws, the
 * transaction is rolled back and the error thrown.
 */
export type WriteNow = <T>(step: (write: WriteStep) => T, timed?: (times: WriteTimes) => void) => Promise<T>;

/** How long a writeNow held the write lock, from BEGIN IMMEDIATE to the end of COMMIT, and how long its COMMIT (the WAL's write and fsync) took, in seconds. */
export type WriteTimes = { heldSeconds: number; commitSeconds: number };

function writeStep(connection: Database.Database): WriteStep {
  // The connection's own prepare: keepStatementsPrepared hands the adapter another.
  const prepare = connection.prepare.bind(connection);
  const kept = new Map<string, Database.Statement<unknown[]>>();
  const statementFor = (sql: string) => {
    let statement = kept.get(sql);
    if (!statement) {
      statement = prepare<unknown[]>(sql);
      // A write's texts are a handful; past the bound they are prepared afresh.
      if (kept.size < PREPARED_STATEMENTS) kept.set(sql, statement);
    }
    return statement;
  };
  return {
    all: <Row>({ sql, values }: SqlQuery) => statementFor(sql).all(...values.map(sqliteValue)) as Row[],
    run: ({ sql, values }: SqlQuery) => statementFor(sql).run(...values.map(sqliteValue)).changes,
  };
}

/** A value bound as the adapter (7.10) binds it: a Date as ISO 8601 text with its offset, a boolean as 0 or 1. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

type Adapter = Awaited<ReturnType<PrismaBetterSqlite3["connect"]>>;

/**
 * The adapter (7.10) runs every statement on its one connection and makes
 * only transactions wait for each other: a statement issued while another
 * caller's interactive transaction is open runs inside it, and is undone if
 * that transaction rolls back. A plant whose group commit ran during a failed
 * batch would be lost after its 200; a revocation, after its "revoked". Here
 * one lock, held by a transaction from BEGIN until it commits or rolls back,
 * and by every statement outside one while it runs, keeps each statement in
 * the transaction it was issued for. (Code inside a transaction uses its
 * transaction client, never db(), or it would wait for itself.)
 *
 * Other processes may write to the file too (cluster workers, the CLIs). A
 * transaction takes SQLite's write lock at BEGIN IMMEDIATE: with the
 * adapter's BEGIN (deferred), one that read and then wrote after another
 * process had committed failed at once with SQLITE_BUSY_SNAPSHOT, which no
 * waiting cures. Holding the write lock from BEGIN, its statements never meet
 * SQLITE_BUSY. What may meet it are BEGIN IMMEDIATE itself and a statement
 * outside a transaction (one autocommit transaction); SQLite guarantees that
 * either did nothing then, so they are tried again (waitWhileBusy), this
 * process's lock held meanwhile so that its statements keep their order.
 * What waits behind one in this process waits for the same other process:
 * each gives up SQLITE_BUSY_TIMEOUT_MS after it was issued, not after its
 * turn came, or statements queued behind a held lock would fail one by one,
 * SQLITE_BUSY_TIMEOUT_MS apart.
 */
function waitForTransactions(adapter: Adapter, connection: Database.Database, step: WriteStep): WriteNow {
  const acquire = createLock();
  const alone = aloneOn(acquire);
  const { queryRaw, executeRaw, executeScript, startTransaction } = adapter;
  adapter.queryRaw = (query) => alone((busyDeadline) => untilNotBusy(() => queryRaw.call(adapter, query), busyDeadline));
  adapter.executeRaw = (query) => alone((busyDeadline) => untilNotBusy(() => executeRaw.call(adapter, query), busyDeadline));
  // Not tried again: each statement of a script commits on its own, and those before the busy one would run twice.
  adapter.executeScript = (script) => alone(() => executeScript.call(adapter, script));
  // Through the adapter's executeRaw, so that a BUSY it gives up on is the adapter's error, as any other statement's.
  const beginImmediate = () => executeRaw.call(adapter, { sql: "BEGIN IMMEDIATE", args: [], argTypes: [] });
  // The adapter's startTransaction then runs BEGIN, which must do nothing: the transaction is begun. (Had
  // its BEGIN failed, the adapter would never release a mutex of its own, and no transaction would start again.)
  const prepare = connection.prepare.bind(connection);
  connection.prepare = ((sql: string) => (sql === "BEGIN" && connection.inTransaction ? { run: () => undefined } : prepare(sql))) as Database.Database["prepare"];
  adapter.startTransaction = async (isolationLevel) => {
    const busyDeadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
    const release = await acquire();
    try {
      await untilNotBusy(beginImmediate, busyDeadline);
      const transaction = await startTransaction.call(adapter, isolationLevel);
      const { commit, rollback } = transaction;
      let released = false;
      const end = () => {
        if (!released) release();
        released = true;
      };
      transaction.commit = () => commit.call(transaction).finally(end);
      transaction.rollback = () => rollback.call(transaction).finally(end);
      return transaction;
    } catch (error) {
      // The adapter refused the transaction (an isolation level SQLite lacks) after it was begun here.
      if (connection.inTransaction) connection.exec("ROLLBACK");
      release();
      throw error;
    }
  };
  // Not through the adapter: an interactive transaction runs Prisma's engine between its statements with
  // the lock held. With two workers a create held it 3 to 4 ms a commit that way, 1.5 to 2 ms this way
  // (BENCH_SCALING=profile, issue 33).
  return writesNow(connection, alone, step);
}

type Alone = <T>(run: (busyDeadline: number) => Promise<T>) => Promise<T>;

/** Runs `run` holding this process's lock on its connection; `busyDeadline` is when a wait for another process gives up. */
function aloneOn(acquire: () => Promise<() => void>): Alone {
  return async (run) => {
    const busyDeadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
    const release = await acquire();
    try {
      return await run(busyDeadline);
    } finally {
      release();
    }
  };
}

/** Attempts again, on timers, what met another process's lock (waitWhileBusy). */
const untilNotBusy = <T>(attempt: () => Promise<T>, busyDeadline: number): Promise<T> =>
  attempt().catch((error: unknown) => waitWhileBusy(error, attempt, busyDeadline));

/** WriteNow on `connection`, each write holding this process's lock on it (`alone`). */
function writesNow(connection: Database.Database, alone: Alone, step: WriteStep): WriteNow {
  const beginNow = async () => void connection.exec("BEGIN IMMEDIATE");
  return (run, timed) =>
    alone(async (busyDeadline) => {
      await untilNotBusy(beginNow, busyDeadline);
      // From here to COMMIT nothing is awaited: the lock is held only to write and sync.
      const begun = performance.now();
      let result;
      let committing;
      try {
        result = run(step);
        committing = performance.now();
        connection.exec("COMMIT");
      } catch (error) {
        // A failed COMMIT (a full disk) may have ended the transaction itself.
        if (connection.inTransaction) connection.exec("ROLLBACK");
        throw error;
      }
      const committed = performance.now();
      timed?.({ heldSeconds: (committed - begun) / 1000, commitSeconds: (committed - committing) / 1000 });
      return result;
    });
}

// Waits between attempts while another process holds the write lock: its
// commit holds it for about a millisecond (an fsync), so the first waits are
// short; doubling to a ceiling keeps a long hold (a snapshot's, a CLI's) to
// one wake-up per few milliseconds.
//
// Against better-sqlite3's busy timeout, measured (creates through createPlant
// from several processes on one file; two cores shared with other work, load
// average 10-17, so runs differ by ±30 %; medians of four): 3 processes with
// 32 creates in flight each, 2,310/s on timers and 1,720/s blocking (an
// earlier round 1,240 and 1,510); 2 processes one create at a time, 130/s
// and 139/s. The same, within the noise. The event loop is not: its longest
// stall in a writer was 0.08-0.36 s on timers (the CPU busy elsewhere) and
// 1.2-5.6 s in the busy wait, during which the process answered nothing.
const FIRST_BUSY_WAIT_MS = 1;
const LONGEST_BUSY_WAIT_MS = 8;

/**
 * After `error` from a first attempt: throws it unless it is SQLITE_BUSY;
 * otherwise attempts again on timers, the event loop free meanwhile, until
 * one succeeds, fails otherwise, or the deadline has passed (then the last
 * BUSY is thrown: a 503, lib/db/database-outage.ts). Only for attempts that
 * did nothing when they met SQLITE_BUSY.
 */
async function waitWhileBusy<T>(error: unknown, attempt: () => Promise<T>, deadline: number): Promise<T> {
  for (let wait = FIRST_BUSY_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_BUSY_WAIT_MS)) {
    if (databaseOutage(error) !== "busy" || Date.now() + wait > deadline) throw error;
    await sleep(wait);
    try {
      return await attempt();
    } catch (again) {
      error = again;
    }
  }
}

/** A first-come, first-served lock: acquire() answers the function that releases it. */
function createLock(): () => Promise<() => void> {
  let last: Promise<void> = Promise.resolve();
  return () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = last;
    last = last.then(() => held);
    return ready.then(() => release);
  };
}

// Statements kept prepared, by SQL text. The hot queries are a handful of
// texts (the group commit's INSERT has one per batch size), and an entry is
// a few kB of SQLite's memory.
const PREPARED_STATEMENTS = 256;

/**
 * The driver adapter (7.10) prepares every statement it runs afresh, which
 * costs as much CPU as running it: about 5 % of an API request under load.
 * better-sqlite3 statements can run again with new parameters, so its
 * connection hands the adapter a kept statement behind the one interface the
 * adapter uses, prepare(sql).bind(args), with the arguments passed at each
 * run instead of bound for good (bind() may be called once per statement).
 */
function keepStatementsPrepared(connection: Database.Database): void {
  const prepare = connection.prepare.bind(connection);
  const kept = new Map<string, Database.Statement<unknown[]>>();
  const statementFor = (sql: string): Database.Statement<unknown[]> => {
    let statement = kept.get(sql);
    if (statement) {
      // Least recently used last out: a Map iterates in insertion order.
      kept.delete(sql);
    } else {
      statement = prepare<unknown[]>(sql);
      if (kept.size >= PREPARED_STATEMENTS) kept.delete(kept.keys().next().value!);
    }
    kept.set(sql, statement);
    return statement;
  };
  connection.prepare = ((sql: string) => {
    const statement = statementFor(sql);
    const run = (args: unknown[]) => ({
      reader: statement.reader,
      run: () => statement.run(...args),
      // Asked afresh each time: SQLite re-prepares a kept statement after a migration, and its column types may change.
      columns: () => statement.columns(),
      raw: () => ({ all: () => statement.raw(true).all(...args) }),
    });
    return { reader: statement.reader, bind: (...args: unknown[]) => run(args.length === 1 && Array.isArray(args[0]) ? args[0] : args), run: (...args: unknown[]) => statement.run(...args) };
  }) as unknown as Database.Database["prepare"];
}

/**
 * Prisma gives up starting an interactive transaction after maxWait (2 s by
 * default) with P2028, a 500. Its BEGIN IMMEDIATE may wait for another
 * process's lock until SQLITE_BUSY_TIMEOUT_MS after it was asked for, and
 * should end as SQLITE_BUSY, a 503 that says to try again; the 2 s beyond
 * are the default's, for waiting behind this process's own transactions.
 */
export const SQLITE_TRANSACTION_OPTIONS = { maxWait: SQLITE_BUSY_TIMEOUT_MS + 2_000 };

/**
 * A connection of its own to the SQLite file at `databasePath` (made and
 * migrated already), with the app's pragmas, that writes only by writeNow:
 * the cluster primary's plant writer (lib/plants/plant-writer.ts).
 */
export function openSqliteWriter(databasePath: string): { writeNow: WriteNow; close(): void } {
  const connection = new Database(databasePath, { fileMustExist: true, timeout: 0 });
  try {
    // At start, before any request: a wait here blocks nothing that serves.
    connection.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}; ${SQLITE_PRAGMAS} PRAGMA busy_timeout = 0;`);
    connection.defaultSafeIntegers(true);
  } catch (error) {
    connection.close();
    throw error;
  }
  return { writeNow: writesNow(connection, aloneOn(createLock()), writeStep(connection)), close: () => connection.close() };
}

/** Prisma's driver adapter for the SQLite file at `databasePath`, with the settings above; once Prisma has connected it, its writeNow writes in one step. */
export function sqliteAdapter(databasePath: string): PrismaBetterSqlite3 & { readonly writeNow: WriteNow | undefined } {
  return new DurableSqliteAdapter({ url: databasePath, timeout: 0 });
}

// Prisma's own DDL for the table (schema-engine, sqlite flavour).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** Applies what is pending to the SQLite file (made if missing), in one transaction; returns the names applied. */
export async function migrateSqlite(databasePath: string, migrations: Migration[]): Promise<string[]> {
  mkdirSync(path.dirname(databasePath), { recursive: true });
  const sqlite = new Database(databasePath, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    sqlite.pragma("journal_mode = WAL");
    // Prisma runs migrations with foreign keys off, and its table rebuilds rely
    // on it (the pragma is a no-op inside a transaction, so set it here);
    // foreign_key_check below still refuses a migration that leaves a dangling row.
    sqlite.pragma("foreign_keys = OFF");
    // IMMEDIATE takes the write lock first, so two processes starting at once
    // apply each migration once: the second waits, then finds nothing pending.
    return sqlite.transaction(() => applyPending(sqlite, migrations)).immediate();
  } finally {
    sqlite.close();
  }
}

function applyPending(sqlite: Database.Database, migrations: Migration[]): string[] {
  sqlite.exec(CREATE_MIGRATIONS_TABLE);
  const recorded = sqlite
    .prepare(`SELECT migration_name AS name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`)
    .all() as { name: string; finished: number }[];
  const pending = pendingMigrations(
    migrations,
    recorded.map((row) => ({ name: row.name, finished: row.finished === 1 })),
  );
  if (pending.length === 0) return [];
  const before = danglingRows(sqlite);
  // Prisma's engine binds these times as Unix milliseconds.
  const record = sqlite.prepare(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
  );
  for (const migration of pending) {
    const startedAt = Date.now();
    sqlite.exec(migration.script);
    record.run(randomUUID(), checksum(migration.script), migration.name, startedAt, Date.now());
  }
  // Only what these migrations broke refuses them: a row left dangling
  // earlier (deleted with foreign keys off, say) is the data's problem, not theirs.
  const introduced = [...danglingRows(sqlite)].filter((row) => !before.has(row));
  if (introduced.length > 0) throw new Error(`migrations left ${introduced.length} rows breaking foreign keys: ${introduced.slice(0, 5).join(", ")}`);
  return pending.map((migration) => migration.name);
}

/** Rows whose foreign key points at nothing, as "table rowid -> parent". */
function danglingRows(sqlite: Database.Database): Set<string> {
  const rows = sqlite.pragma("foreign_key_check") as { table: string; rowid: number; parent: string }[];
  return new Set(rows.map((row) => `${row.table} ${row.rowid} -> ${row.parent}`));
}

/** Rows whose foreign key points at nothing, in a SQLite file: reported at start, never a reason not to start. */
export function sqliteDanglingRows(databasePath: string): string[] {
  const sqlite = new Database(databasePath, { readonly: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    return [...danglingRows(sqlite)];
  } finally {
    sqlite.close();
  }
}

import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { againAfterOutage } from "@/lib/db/database-outage";
import { checksum, type Migration, pendingMigrations } from "@/lib/db/migrations";
import { connectPostgres } from "@/lib/db/postgres-connect";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

// PostgreSQL, for more than one instance: the Prisma driver adapter with the
// settings that make a 200 durable, and the migrator.

// A commit returns only once its WAL is flushed to disk, whatever the server's
// or the database's default says: a 200 means the plant is stored.
const CONNECTION_OPTIONS = "-c synchronous_commit=on";

/** Prisma's driver adapter for the PostgreSQL database at `url`, on the process's pool. */
export function postgresAdapter(url: string): PrismaPg {
  return new RetryingPostgresAdapter(postgresPool(url));
}

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/**
 * When PostgreSQL terminates connections (a restart, a failover,
 * pg_terminate_backend), the pool may hand out one that is already dead, and
 * the statement on it fails; the pool drops it (issue 20). What is safe to
 * do again is done again, once, on another connection: a read (a statement
 * outside any transaction that begins with SELECT: Prisma's reads and ours,
 * none with side effects), and the start of a transaction (connecting and
 * BEGIN: nothing is written yet). A write is never repeated: whether it
 * committed before its connection broke is unknown, and the request says so
 * (lib/http/error-response.ts).
 * A connection the server dropped without a word (a failover, a firewall)
 * is found dead only when used: with several such in the pool, a read may
 * meet two, and its request answers 503 while the pool sheds them.
 */
class RetryingPostgresAdapter extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const queryRaw = adapter.queryRaw.bind(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.queryRaw = async (query) => {
      try {
        return await queryRaw(query);
      } catch (error) {
        if (!READ.test(query.sql)) throw error;
        return againAfterOutage(error, queryRaw, query);
      }
    };
    adapter.startTransaction = async (isolationLevel) => {
      try {
        return await startTransaction(isolationLevel);
      } catch (error) {
        return againAfterOutage(error, startTransaction, isolationLevel);
      }
    };
    return adapter;
  }
}

const READ = /^\s*SELECT\b/i;

/**
 * The process's pool of connections to `url`, with the settings above on
 * each: the Prisma adapter's, and the one the hot reads use
 * (lib/db/direct-reads.ts).
 */
export function postgresPool(url: string): pg.Pool {
  return processGlobal("db.pool", () => {
    // DATABASE_POOL_SIZE per process: with several workers on several machines, PostgreSQL's
    // max_connections must hold machines × workers × (this + the rate limits' 4).
    // Named, so that pg_stat_activity tells an operator whose connections these are.
    const pool = new pg.Pool({ connectionString: url, max: env().databasePoolSize, options: CONNECTION_OPTIONS, application_name: "plant-store" });
    // An idle connection the server drops (a restart, a failover) is replaced
    // on next use; unheard, the pool's "error" event would end the process.
    pool.on("error", (error) => log.warn("a database connection was lost", describeError(error)));
    return pool;
  });
}

/** Closes the pool, if this process opened one; the next postgresPool() opens a new one. */
export async function closePostgresPool(): Promise<void> {
  await takeProcessGlobal<pg.Pool>("db.pool")?.end();
}

// Prisma's own DDL for the table (schema-engine, postgres flavour).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

// The session lock `prisma migrate deploy` takes (schema-engine picked
// 72707369 for Migrate): instances starting together, and Prisma's own CLI,
// apply each migration once, one after another.
const MIGRATE_LOCK = 72707369;

/** Applies what is pending to the PostgreSQL database, in one transaction; returns the names applied. */
export async function migratePostgres(url: string, migrations: Migration[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, options: CONNECTION_OPTIONS });
  await connectPostgres(client, url);
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK]);
    await client.query("BEGIN");
    try {
      const applied = await applyPending(client, migrations);
      await client.query("COMMIT");
      return applied;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  } finally {
    // Closing the session releases its advisory lock.
    await client.end();
  }
}

async function applyPending(client: pg.Client, migrations: Migration[]): Promise<string[]> {
  await client.query(CREATE_MIGRATIONS_TABLE);
  const { rows } = await client.query<{ name: string; finished: boolean }>(
    `SELECT migration_name AS name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
  );
  const pending = pendingMigrations(migrations, rows);
  for (const migration of pending) {
    const startedAt = new Date();
    // No parameters: the simple query protocol runs a script of many statements.
    await client.query(migration.script);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, $4, $5, 1)`,
      [randomUUID(), checksum(migration.script), migration.name, startedAt, new Date()],
    );
  }
  return pending.map((migration) => migration.name);
}

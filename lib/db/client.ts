import type { PrismaPg } from "@prisma/adapter-pg";
import type { DatabaseConfig } from "@/lib/db/database-url";
import type { PostgresStatement } from "@/lib/db/postgres-writes";
import { closeDirectReads } from "@/lib/db/direct-reads";
import { SQLITE_TRANSACTION_OPTIONS, sqliteAdapter, type WriteStep, type WriteTimes } from "@/lib/db/sqlite";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/postgres/client";
import { Prisma, PrismaClient } from "@/lib/generated/sqlite/client";
import { env } from "@/lib/server/env";
import { processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

// The one Prisma client of the process, for the database DATABASE_URL names.
//
// Prisma generates a client per provider (prisma/sqlite, prisma/postgres):
// the same models and methods, but nominally distinct types. The app is typed
// against the SQLite client, the narrower of the two, so a PostgreSQL-only
// query option cannot slip in and then fail on SQLite; the PostgreSQL client
// is handed out under that type, and every query runs on both databases in
// the tests.
export { Prisma };
export type { AccountLink, ApiToken, User, WebhookDelivery, WebhookEndpoint, WebhookEvent } from "@/lib/generated/sqlite/client";
export type Database = PrismaClient;
export type { WriteStep, WriteTimes };

/**
 * How long an interactive transaction may run before Prisma rolls it back: as
 * long as a request may take (REQUEST_TIMEOUT_MS's default). Prisma's own 5 s
 * is a speed limit, not a hang guard: on a loaded machine an invitation's
 * transaction on PostgreSQL took 5.4 and 6.8 s and was rolled back, a 500 for
 * work that was only slow (issue 31).
 */
export const TRANSACTION_TIMEOUT_MS = 30_000;

// Each SQLite client's adapter, for writeNow: per process, as the client is (lib/server/process-global.ts).
const sqliteAdapters = () => processGlobal("db.sqlite-adapters", () => new WeakMap<Database, ReturnType<typeof sqliteAdapter>>());

function createClient(database: DatabaseConfig): Database {
  if (database.provider === "sqlite") {
    const adapter = sqliteAdapter(database.path);
    const client = new PrismaClient({ adapter, transactionOptions: { ...SQLITE_TRANSACTION_OPTIONS, timeout: TRANSACTION_TIMEOUT_MS } });
    sqliteAdapters().set(client, adapter);
    return client;
  }
  return new PostgresPrismaClient({ adapter: postgresAdapterOnFirstQuery(database.url), transactionOptions: { timeout: TRANSACTION_TIMEOUT_MS } }) as unknown as Database;
}

/**
 * Prisma's PostgreSQL adapter, whose module (and pg) loads when Prisma first
 * connects, rather than wherever this module is imported: the operator CLIs
 * on SQLite paid about 0.1 s of CPU for it on every call (issue 20).
 */
function postgresAdapterOnFirstQuery(url: string): Pick<PrismaPg, "provider" | "adapterName" | "connect"> {
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: async () => (await import("@/lib/db/postgres")).postgresAdapter(url).connect(),
  };
}

export function db(): Database {
  return processGlobal("db", () => createClient(env().database));
}

/**
 * SQLite only: runs `step` as one transaction on the Prisma client's own
 * connection, its statements and COMMIT in one synchronous step, so that the
 * write lock is held only to write and sync (lib/db/sqlite.ts, WriteNow). On
 * the one connection, so it waits for the client's open transactions and
 * they for it, as for each other.
 */
export async function writeNow<T>(step: (write: WriteStep) => T, timed?: (times: WriteTimes) => void): Promise<T> {
  const client = db();
  const adapter = sqliteAdapters().get(client);
  if (!adapter) throw new Error(`writeNow is SQLite's; DATABASE_URL names ${env().database.provider}`);
  if (!adapter.writeNow) await client.$connect();
  return adapter.writeNow!(step, timed);
}

/**
 * Closes every connection this process opened to the database (at shutdown);
 * a later db() starts afresh, on new connections.
 */
export async function disconnectDatabase(): Promise<void> {
  await closeDirectReads();
  await takeProcessGlobal<Database>("db")?.$disconnect();
  if (env().database.provider === "postgresql") await (await import("@/lib/db/postgres")).closePostgresPool();
}

/**
 * Whether a transaction lost a serialization race (PostgreSQL's 40001 under
 * SERIALIZABLE), so that nothing it did was kept. Prisma reports it as P2034
 * when the commit fails; when a raw statement does, as P2010 carrying the
 * driver adapter's error, a DriverAdapterError of kind TransactionWriteConflict.
 */
export function isWriteConflict(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    return error.code === "P2034" || (error.code === "P2010" && isWriteConflict(error.meta?.driverAdapterError));
  }
  if (!(error instanceof Error) || error.name !== "DriverAdapterError") return false;
  const { cause } = error as { cause?: unknown };
  return typeof cause === "object" && cause !== null && "kind" in cause && cause.kind === "TransactionWriteConflict";
}

let postgresWrites: Promise<typeof import("@/lib/db/postgres-writes")> | undefined;

/**
 * PostgreSQL only: runs one statement that writes (and commits alone) on the
 * process's pool, not through Prisma (lib/db/postgres-writes.ts); answers its
 * rows, int8 as text. Its module (and pg) loads with the first such write.
 */
export async function writeOnPostgres<Row>(statement: PostgresStatement): Promise<Row[]> {
  const database = env().database;
  if (database.provider !== "postgresql") throw new Error(`writeOnPostgres is PostgreSQL's; DATABASE_URL names ${database.provider}`);
  postgresWrites ??= import("@/lib/db/postgres-writes");
  return (await postgresWrites).writeOnPool<Row>(database.url, statement);
}

import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { env } from "@/lib/env";
import { SQLITE_BUSY_TIMEOUT_MS, SQLITE_PRAGMAS } from "@/lib/sqlite";
import { PrismaClient } from "@/lib/generated/prisma/client";

class DurableSqliteAdapter extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(SQLITE_PRAGMAS);
    return adapter;
  }
}

function createClient(databasePath: string): PrismaClient {
  const adapter = new DurableSqliteAdapter({ url: databasePath, timeout: SQLITE_BUSY_TIMEOUT_MS });
  return new PrismaClient({ adapter });
}

// One client per process. Next bundles instrumentation, route handlers and
// pages separately, and dev mode reloads modules, so the instance lives on
// globalThis rather than in this module's scope.
const holder = globalThis as typeof globalThis & { plantStoreDb?: PrismaClient };

export function db(): PrismaClient {
  holder.plantStoreDb ??= createClient(env().databasePath);
  return holder.plantStoreDb;
}

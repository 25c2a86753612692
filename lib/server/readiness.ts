import { db } from "@/lib/db/client";
import { listMigrations } from "@/lib/db/migrations";
import { env } from "@/lib/server/env";
import { lifecycle } from "@/lib/server/lifecycle";

/** Why this instance should not be sent requests now, or undefined when it is ready. */
export async function notReadyBecause(): Promise<string | undefined> {
  if (lifecycle().shuttingDown) return "shutting down";
  let applied: Set<string>;
  try {
    const rows = await db().$queryRaw<{ name: string }[]>`
      SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    applied = new Set(rows.map((row) => row.name));
  } catch {
    // The cause stays in the server's own reports; a probe's answer names none.
    return "the database does not answer";
  }
  const pending = listMigrations(env().database.provider).filter((migration) => !applied.has(migration.name));
  return pending.length > 0 ? "migrations are pending" : undefined;
}

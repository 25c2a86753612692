import { db, Prisma } from "@/lib/db/client";
import { env } from "@/lib/server/env";

// Which worker sends which delivery. A worker claims due deliveries by setting
// their claimed_until, in one statement; while a claim holds, no other worker
// (another instance, `npm run worker`) takes them. A claim outlives the
// attempt's time limit by CLAIM_MARGIN_MS, time enough to record the outcome;
// the claims of a worker that crashed simply lapse, and the deliveries are
// sent again (at least once, as every webhook sender promises; the
// webhook-id lets a receiver drop the repeat).

/** How long a claim outlasts the attempt's time limit: time to record the outcome, on a busy database. */
export const CLAIM_MARGIN_MS = 10_000;

export type Claim = {
  ids: string[];
  /** The claimed_until written: it also names the claim, so that only its holder records or releases it. */
  until: Date;
};

// Due: pending, its time come, its endpoint enabled, and no claim holding it.
function due(now: Date): Prisma.Sql {
  return Prisma.sql`d."status" = 'pending' AND d."next_attempt_at" <= ${now} AND e."enabled"
    AND (d."claimed_until" IS NULL OR d."claimed_until" <= ${now})`;
}

/** Claims up to `limit` due deliveries, the longest waiting first; answers their ids (none when nothing is due). */
export async function claimDueDeliveries(limit: number, now = new Date()): Promise<Claim> {
  const { database, webhooks } = env();
  const until = new Date(now.getTime() + webhooks.timeoutMs + CLAIM_MARGIN_MS);
  // A read first: most polls find nothing, and on SQLite a read takes no write lock from the API's writes.
  const [any] = await db().$queryRaw<{ id: string }[]>`
    SELECT d."id" FROM "webhook_deliveries" d JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
    WHERE ${due(now)} LIMIT 1`;
  if (!any) return { ids: [], until };

  // SQLite has one writer at a time: the statement is atomic as it stands. On
  // PostgreSQL, instances claim concurrently: SKIP LOCKED passes over rows
  // another claim is taking, and a row it took meanwhile fails the re-check of
  // the conditions that FOR UPDATE makes on the row's newest version. The CTE
  // runs once (a LIMIT ... FOR UPDATE inside IN (...) may not).
  const rows =
    database.provider === "postgresql"
      ? await db().$queryRaw<{ id: string }[]>`
          WITH claimed AS (
            SELECT d."id" FROM "webhook_deliveries" d JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
            WHERE ${due(now)} ORDER BY d."next_attempt_at" LIMIT ${limit} FOR UPDATE OF d SKIP LOCKED)
          UPDATE "webhook_deliveries" w SET "claimed_until" = ${until} FROM claimed WHERE w."id" = claimed."id"
          RETURNING w."id"`
      : await db().$queryRaw<{ id: string }[]>`
          UPDATE "webhook_deliveries" SET "claimed_until" = ${until}
          WHERE "id" IN (
            SELECT d."id" FROM "webhook_deliveries" d JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
            WHERE ${due(now)} ORDER BY d."next_attempt_at" LIMIT ${limit})
          RETURNING "id"`;
  return { ids: rows.map((row) => row.id), until };
}

/** Gives claimed deliveries back, unsent, for the next poll of any worker. */
export async function releaseClaims(ids: readonly string[], until: Date): Promise<void> {
  if (ids.length === 0) return;
  await db().webhookDelivery.updateMany({ where: { id: { in: [...ids] }, claimedUntil: until, status: "pending" }, data: { claimedUntil: null } });
}

import type pg from "pg";

// PostgreSQL only: giving committed changes their positions (see migration
// 20261129000000_plant_changes for why positions are not a sequence's).
//
// One stamper at a time, on any instance: a transaction-scoped advisory lock
// (released at its commit) before the UPDATE. Under READ COMMITTED the UPDATE
// takes its snapshot once the lock is held, so it sees every change committed
// before the previous stamper committed, and gives each unstamped one the
// highest position so far plus its rank by seq: positions grow by one, and no
// position is ever given while a smaller one is still uncommitted. A change
// committed after the snapshot waits for the next stamp. Readers never block
// a stamp, nor a stamp a writer (it touches only committed rows).
//
// Its commit sends NOTIFY plant_changes_stamped, which wakes the instances'
// feeds (lib/live/change-tail.ts).

/** The advisory lock key of the stamper (the feed's own; the migrator's is 72707369). */
const STAMP_LOCK = 32_320_261_129n;
/** Rows stamped at most per transaction: a large import is stamped in a few steps, none long. */
const STAMP_ROWS = 5_000;

export const STAMPED_CHANNEL = "plant_changes_stamped";
export const WRITTEN_CHANNEL = "plant_changes";

const STAMP = `WITH "top" AS (SELECT coalesce(max("position"), 0) AS "position" FROM "plant_changes"),
"pending" AS (SELECT "seq", row_number() OVER (ORDER BY "seq") AS "rank" FROM "plant_changes" WHERE "position" IS NULL ORDER BY "seq" LIMIT ${STAMP_ROWS})
UPDATE "plant_changes" AS "change" SET "position" = "top"."position" + "pending"."rank"
FROM "top", "pending" WHERE "change"."seq" = "pending"."seq"`;

/** Stamps every committed change that has no position yet; answers how many. */
export async function stampChanges(pool: pg.Pool): Promise<number> {
  let total = 0;
  for (;;) {
    const stamped = await stampStep(pool);
    total += stamped;
    if (stamped < STAMP_ROWS) return total;
  }
}

async function stampStep(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [STAMP_LOCK.toString()]);
      const { rowCount } = await client.query(STAMP);
      const stamped = rowCount ?? 0;
      if (stamped > 0) await client.query(`NOTIFY ${STAMPED_CHANNEL}`);
      await client.query("COMMIT");
      return stamped;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollback: Error) => (broken = rollback));
      throw error;
    }
  } finally {
    // A connection whose ROLLBACK failed is dropped, not given back to the pool.
    client.release(broken);
  }
}

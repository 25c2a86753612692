import { db } from "@/lib/db/client";
import { INT64_MAX, INT64_MIN } from "@/lib/validations/plant";

// The id the staff form suggests for the next plant: one more than the
// largest stored, so that a day's plants get ids in order; 1 in an empty
// store, or when every stored id is below 1 (a new store should not start at
// -41 because someone once typed it). It is a suggestion, not a reservation:
// two people may be offered the same id, and the second gets the 409 any
// other taken id gets.

/** The suggested id; undefined only when no int64 is free (every one of them is stored). */
export async function suggestNextPlantId(): Promise<bigint | undefined> {
  const { _max, _min } = await db().plant.aggregate({ _max: { id: true }, _min: { id: true } });
  if (_max.id === null || _min.id === null) return 1n;
  if (_max.id < INT64_MAX) return _max.id + 1n > 1n ? _max.id + 1n : 1n;
  // Someone stored the largest int64, so nothing lies above it: the largest free id below it instead.
  return (await largestFreeIdBelow(_max.id)) ?? (_min.id > INT64_MIN ? _min.id - 1n : undefined);
}

/**
 * The largest free id below `ceiling` that is one more than a stored id (the
 * top of the highest gap), if any. Walks the primary key downwards from the
 * ceiling, so it stops at the first gap, however many plants lie below it.
 */
async function largestFreeIdBelow(ceiling: bigint): Promise<bigint | undefined> {
  const [row] = await db().$queryRaw<{ id: bigint }[]>`
    SELECT "id" FROM "plants" AS "stored"
    WHERE "id" < ${ceiling} AND NOT EXISTS (SELECT 1 FROM "plants" AS "next" WHERE "next"."id" = "stored"."id" + 1)
    ORDER BY "id" DESC LIMIT 1`;
  return row ? BigInt(row.id) + 1n : undefined;
}

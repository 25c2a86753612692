import type { z } from "zod";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import type { Prisma } from "@/lib/db/client";

// The store-wide choices owners make (the second-factor policy, issue 24; the
// sign-in methods, issue 34), one row each in the settings table under its
// key, each change recorded as settings.changed in its own transaction.

type Client = Prisma.TransactionClient;

/**
 * The setting under `key` as `schema` reads it: `absent` when it was never
 * set; `unknown` (the strictest choice) for a value this version does not
 * know, written by a later one.
 */
export async function readSetting<T>(client: Client, key: string, schema: z.ZodType<T>, { absent, unknown }: { absent: T; unknown: T }): Promise<T> {
  const row = await client.setting.findUnique({ where: { key } });
  if (!row) return absent;
  const parsed = schema.safeParse(row.value);
  return parsed.success ? parsed.data : unknown;
}

/** Stores `value` under `key` in `tx` and records the change, `field` before and after, as `by`'s. */
export async function saveSetting(tx: Client, key: string, field: string, change: { before: string; after: string }, by: Attribution): Promise<void> {
  const now = new Date();
  await tx.setting.upsert({ where: { key }, create: { key, value: change.after, updatedAt: now }, update: { value: change.after, updatedAt: now } });
  await recordActivity(tx, [{ action: "settings.changed", subjectKind: "setting", subjectId: key, changes: { before: { [field]: change.before }, after: { [field]: change.after } }, by }], now);
}

import type { ForeignKey } from "@/lib/db/copy/copy-ends";

// SQL the copy runs alike on both engines (issue 23).

/** A quoted identifier: names come from the database's own catalogue, and are quoted all the same. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Counts the rows whose foreign key names a parent that does not exist. */
export function danglingRowsSql(key: ForeignKey): string {
  const [child, parent, column] = [quoteName(key.table), quoteName(key.parent), quoteName(key.column)];
  return `SELECT count(*) FROM ${child} c WHERE c.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${parent} p WHERE p.${quoteName(key.parentColumn)} = c.${column})`;
}

/** Counts the change feed's changes without a position: on PostgreSQL, committed and not stamped yet (lib/live/change-stamps.ts). */
export const UNSTAMPED_CHANGES_SQL = `SELECT count(*) FROM "plant_changes" WHERE "position" IS NULL`;

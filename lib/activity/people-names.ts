import type { ActivityEntry } from "@/lib/activity/history";
import { db } from "@/lib/db/client";

// A token's record names the token by its label and the account it belongs to
// by id only (lib/activity/record.ts): the pages that show the record name
// that person, as they are named now, and whether or not they are still active.

/** The names of the people whose tokens made these entries, by account id. */
export async function namesOfTokenOwners(entries: readonly ActivityEntry[]): Promise<Map<string, string>> {
  const ids = [...new Set(entries.flatMap(({ actor }) => (actor.kind === "token" && actor.userId !== null ? [actor.userId] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}

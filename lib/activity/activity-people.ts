import type { ActivitySearch } from "@/lib/activity/activity-search";
import { db } from "@/lib/db/client";

// The accounts the Activity page, its CSV and the CLI name records by: the
// person filter's choices, a token's person, an account a record is about
// (lib/activity/describe.ts takes their names by id). A team is a few dozen
// accounts at most, read whole; accounts are never deleted (only
// deactivated), so every id a record holds is among them. Read here, as
// people-names.ts reads them: the record does not call back into the
// accounts' domain that calls it.

export type ActivityAccount = { id: string; name: string; email: string };

export type ActivityPeople = { accounts: ActivityAccount[]; names: ReadonlyMap<string, string> };

export async function activityPeople(): Promise<ActivityPeople> {
  const accounts = await db().user.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, name: true, email: true } });
  return { accounts, names: new Map(accounts.map((account) => [account.id, account.name])) };
}

/** The mistake of a person filter that names no account, as the schema words its own mistakes; undefined when there is none. */
export function unknownPerson({ person }: ActivitySearch, names: ReadonlyMap<string, string>): string | undefined {
  return person === undefined || names.has(person) ? undefined : `person must be an account's id: no account has the id ${person}`;
}

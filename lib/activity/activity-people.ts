import type { ActivitySearch } from "@/lib/activity/activity-search";
import { listUsers, type StaffUser } from "@/lib/auth/users";

// The accounts the Activity page, its CSV and the CLI name records by: the
// person filter's choices, a token's person, an account a record is about
// (lib/activity/describe.ts takes their names by id). A team is a few dozen
// accounts at most, read whole; accounts are never deleted (only
// deactivated), so every id a record holds is among them.

export type ActivityPeople = { accounts: StaffUser[]; names: ReadonlyMap<string, string> };

export async function activityPeople(): Promise<ActivityPeople> {
  const accounts = await listUsers();
  return { accounts, names: new Map(accounts.map((account) => [account.id, account.name])) };
}

/** The mistake of a person filter that names no account, as the schema words its own mistakes; undefined when there is none. */
export function unknownPerson({ person }: ActivitySearch, names: ReadonlyMap<string, string>): string | undefined {
  return person === undefined || names.has(person) ? undefined : `person must be an account's id: no account has the id ${person}`;
}

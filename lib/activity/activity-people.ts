import type { ActivitySearch } from "@/lib/activity/activity-search";
import type { People } from "@/lib/activity/activity-words";
import { listUsers, type StaffUser } from "@/lib/auth/users";

// The accounts the Activity page, its CSV and the CLI name records by: the
// person filter's choices, a token's person, an account a record is about.
// A team is a few dozen accounts at most, read whole; accounts are never
// deleted (only deactivated), so every id a record holds is among them.

export type ActivityPeople = { accounts: StaffUser[]; byId: People };

export async function activityPeople(): Promise<ActivityPeople> {
  const accounts = await listUsers();
  return { accounts, byId: new Map(accounts.map((account) => [account.id, account])) };
}

/** The mistake of a person filter that names no account, as the schema words its own mistakes; undefined when there is none. */
export function unknownPerson({ person }: ActivitySearch, people: People): string | undefined {
  return person === undefined || people.has(person) ? undefined : `person must be an account's id: no account has the id ${person}`;
}

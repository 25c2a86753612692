import Link from "next/link";

// Who made a change (lib/activity/describe.ts nameActor), with the person's
// name leading owners to everything that person did: the owners' Activity
// page filtered to them. Staff cannot open that page, so for them the name is
// only a name.

/** Who made a change: `lead` ("API token “till sync” of "), then the person, if any, by name. */
export type ActorShown = { lead: string; person: { userId: string; name: string } | null };

/** The owners' Activity page for one person (its `person` parameter is the account's id). */
export function personActivityHref(userId: string): string {
  return `/activity?${new URLSearchParams({ person: userId }).toString()}`;
}

export function ActorName({ actor: { lead, person }, linkToActivity }: { actor: ActorShown; linkToActivity: boolean }) {
  if (!person) return <>{lead}</>;
  return (
    <>
      {lead}
      {linkToActivity ? (
        // Named for where it leads; the name seen begins it (WCAG 2.5.3).
        <Link href={personActivityHref(person.userId)} aria-label={`${person.name}’s activity`}>
          {person.name}
        </Link>
      ) : (
        person.name
      )}
    </>
  );
}

// Who made a change, for the activity record (issue 22): a person signed in to
// the staff app, an API token (and the person it belongs to), the app itself
// (a webhook endpoint it disabled after a 410, say), or an operator at the
// CLI. A change that came over HTTP also carries where it came from.

export const ACTOR_KINDS = ["person", "token", "app", "cli"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export type Actor =
  | { kind: "person"; userId: string; name: string }
  | { kind: "token"; tokenId: string; label: string; userId: string | null }
  | { kind: "app" }
  | { kind: "cli"; osUser: string | null };

/** Where a change came from over HTTP: the client's address, its User-Agent, and the request's id (X-Request-Id), which leads to its log line. */
export type RequestOrigin = { clientAddress: string | null; userAgent: string | null; requestId: string | null };

/** Who made a change and, over HTTP, from where. */
export type Attribution = { actor: Actor; origin: RequestOrigin | null };

// The record's own words for the person and the token it names: the domains
// that make changes call the record, never the other way round, so a staff
// account or an API token is attributed by the fields named here.

/** A person as the record names them: their account's id and their name then. */
export type ActingPerson = { id: string; name: string };

/** An API token as the record names it: its id, its label, and the account it belongs to (none for an operator's). */
export type ActingToken = { id: string; label: string; ownerId: string | null };

/** A person, named as they were named then; their email is the account's (userId), for owners' pages to show. */
export function personActor(user: ActingPerson): Actor {
  return { kind: "person", userId: user.id, name: user.name };
}

export function tokenActor(token: ActingToken): Actor {
  return { kind: "token", tokenId: token.id, label: token.label, userId: token.ownerId };
}

export const APP_ACTOR: Actor = { kind: "app" };

/** An operator at the CLI, named by the OS user running it where the OS says. */
export function cliActor(osUser: string | null): Actor {
  return { kind: "cli", osUser };
}

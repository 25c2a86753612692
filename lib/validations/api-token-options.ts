// The scopes an API token may hold and the lifetimes the staff app offers,
// apart from the token form's schema (lib/validations/api-token.ts) so that
// the form shows them without loading zod with the page (issue 20).

export const SCOPES = ["plants:read", "plants:write"] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Whether scopes `held` allow `needed`: plants:write includes plants:read, since a client that may change plants may see them. */
export function grants(held: readonly Scope[], needed: Scope): boolean {
  return held.includes(needed) || (needed === "plants:read" && held.includes("plants:write"));
}

const DAY = 24 * 60 * 60;

export const MAX_TOKEN_LIFETIME_SECONDS = 366 * DAY;

/** The lifetimes the staff app offers; the longest is the maximum. */
export const TOKEN_LIFETIMES = {
  "1d": { label: "1 day", seconds: DAY },
  "7d": { label: "7 days", seconds: 7 * DAY },
  "30d": { label: "30 days", seconds: 30 * DAY },
  "90d": { label: "90 days", seconds: 90 * DAY },
  "366d": { label: "1 year", seconds: MAX_TOKEN_LIFETIME_SECONDS },
} as const;

export type TokenLifetime = keyof typeof TOKEN_LIFETIMES;

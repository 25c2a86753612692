import { z } from "zod";

// API token scopes and lifetimes, and the staff app's form for a new token.
// Imports only zod, so the browser and lib/tokens.ts share these rules.

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
const LIFETIME_KEYS = Object.keys(TOKEN_LIFETIMES) as [TokenLifetime, ...TokenLifetime[]];

export const newApiTokenSchema = z.object({
  label: z.string().trim().min(1, "label is required").max(100, "label must be at most 100 characters"),
  scopes: z
    .array(z.enum(SCOPES, `scopes are ${SCOPES.join(" and ")}`))
    .min(1, "choose at least one scope"),
  expires: z.enum(LIFETIME_KEYS, "choose an expiry from the list"),
});

/** The token form's fields, for placing an error on the one it concerns. */
export const apiTokenFieldSchema = newApiTokenSchema.keyof();

/** What the token form's fields hold, before parsing. */
export type NewApiTokenValues = z.input<typeof newApiTokenSchema>;

import { z } from "zod";

// The staff app's form for a new API token. Imports only zod.

const DAY = 24 * 60 * 60;

/** The lifetimes offered; the longest matches MAX_TOKEN_LIFETIME_SECONDS in lib/tokens.ts. */
export const TOKEN_LIFETIMES = {
  "1d": { label: "1 day", seconds: DAY },
  "7d": { label: "7 days", seconds: 7 * DAY },
  "30d": { label: "30 days", seconds: 30 * DAY },
  "90d": { label: "90 days", seconds: 90 * DAY },
  "366d": { label: "1 year", seconds: 366 * DAY },
} as const;

export type TokenLifetime = keyof typeof TOKEN_LIFETIMES;
const LIFETIME_KEYS = Object.keys(TOKEN_LIFETIMES) as [TokenLifetime, ...TokenLifetime[]];

export const newApiTokenSchema = z.object({
  label: z.string().trim().min(1, "label is required").max(100, "label must be at most 100 characters"),
  scopes: z
    .array(z.enum(["plants:read", "plants:write"], "scopes are plants:read and plants:write"))
    .min(1, "choose at least one scope"),
  expires: z.enum(LIFETIME_KEYS, "choose an expiry from the list"),
});

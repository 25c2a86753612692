import { z } from "zod";
import { SCOPES, TOKEN_LIFETIMES, type TokenLifetime } from "@/lib/validations/api-token-options";

// API token scopes and lifetimes, and the staff app's form for a new token.
// Imports only zod, so the browser and lib/tokens.ts share these rules. The
// scopes and lifetimes themselves are in lib/validations/api-token-options.ts,
// so that the form shows them without loading zod (issue 20).

export { grants, isScope, MAX_TOKEN_LIFETIME_SECONDS, type Scope, SCOPES, TOKEN_LIFETIMES, type TokenLifetime } from "@/lib/validations/api-token-options";

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

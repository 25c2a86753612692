// What the account pages show or compare without validating: the roles, a
// password's length, and the code of a sign-in refused for too many failures.
// Apart from the schemas that enforce them (lib/validations/user.ts) so that
// sign-in and setup do not load zod with the page (issue 20).

export const ROLES = ["owner", "staff"] as const;
export type Role = (typeof ROLES)[number];

// NIST SP 800-63B: at least 8 characters for a memorised secret, allow long
// passphrases. The upper bound only keeps hashing cheap to start.
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** What next-auth hands the sign-in form when too many sign-ins failed: "rate-limited:<seconds to wait>". */
export const SIGN_IN_RATE_LIMITED = "rate-limited";

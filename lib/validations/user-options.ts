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

/**
 * What next-auth hands the sign-in form when the password was right and the
 * account has an authenticator app: "code-needed:<ticket>" (lib/auth/sessions/code-challenge.ts);
 * the form then asks for a code and signs in with the "code" provider.
 */
export const SIGN_IN_CODE_NEEDED = "code-needed";
/** A wrong or reused code at sign-in's second step. */
export const SIGN_IN_WRONG_CODE = "wrong-code";
/** The second step's ticket expired (or is not one): start again with the password. */
export const SIGN_IN_CHALLENGE_EXPIRED = "challenge-expired";
/** A staff member's right password or passkey where the owners chose "single sign-on only" (issue 34). */
export const SIGN_IN_SSO_ONLY = "sso-only";

/** Where an account stands: invited (a pending invitation, no account yet), active, or deactivated (never deleted). */
export const ACCOUNT_STATUSES = ["invited", "active", "deactivated"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** What a one-time link is for (lib/auth/accounts/account-links.ts). */
export const LINK_PURPOSES = ["invitation", "password_reset"] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

/** What opening a one-time link finds, so that its page can say plainly why it cannot be used. */
export const LINK_STATES = ["valid", "expired", "used", "withdrawn", "unknown"] as const;
export type LinkState = (typeof LINK_STATES)[number];

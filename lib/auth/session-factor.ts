// How a session was signed in, in its `factor` claim (issue 24): with the
// password alone, with the password and a code of an authenticator app, with
// the password and a recovery code, or with a passkey. A session of a person
// who has a second factor but whose factor is "password" (or missing, from
// before the claim) did not pass one. Single sign-on (issue 34) is "sso", or
// "sso_mfa" when the ID token's amr says the provider itself asked for a
// second factor: only the latter passes one (lib/auth/single-sign-on/sso-sign-in.ts).

export const SESSION_FACTORS = ["password", "totp", "recovery", "passkey", "sso", "sso_mfa"] as const;
export type SessionFactor = (typeof SESSION_FACTORS)[number];

export function isSessionFactor(value: unknown): value is SessionFactor {
  return typeof value === "string" && (SESSION_FACTORS as readonly string[]).includes(value);
}

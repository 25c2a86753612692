import type { DefaultSession } from "next-auth";

// What lib/auth/auth-options.ts adds to next-auth's types: the user's id in the
// session, and when they signed in (ms since the epoch) in the user that
// authorize() answers and in the token's claims.
declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id?: string };
  }
  interface User {
    signedInAt?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    signedInAt?: number;
    /** How the session was signed in (issue 24): "password", "totp", "recovery" or "passkey". */
    factor?: string;
  }
}

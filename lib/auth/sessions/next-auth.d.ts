import type { DefaultSession } from "next-auth";
import type { SessionFactor } from "@/lib/auth/session-factor";

// What lib/auth/sessions/auth-options.ts adds to next-auth's types: the user's id in the
// session, and when they signed in (ms since the epoch) and how (factor,
// lib/auth/session-factor.ts) in the user that authorize() answers and in the
// token's claims.
declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id?: string };
  }
  interface User {
    signedInAt?: number;
    factor?: SessionFactor;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    signedInAt?: number;
    factor?: SessionFactor;
  }
}

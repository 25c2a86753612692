import type { DefaultSession } from "next-auth";
import type { SessionFactor } from "@/lib/auth/session-cookie";

// What lib/auth/auth-options.ts adds to next-auth's types: the user's id in the
// session, and when they signed in (ms since the epoch) in the user that
// authorize() answers and in the token's claims, with how they signed in (factor).
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

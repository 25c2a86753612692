import type { DefaultSession } from "next-auth";

// The session callback in lib/auth.ts adds the user's id.
declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id?: string };
  }
}

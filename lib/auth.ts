import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { safeCallbackPath } from "@/lib/callback-url";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { authenticate } from "@/lib/users";
import { signInSchema } from "@/lib/validations/user";

// next-auth's configuration: staff sign in with email and password; the
// session is an encrypted JWT cookie that expires after a working day.

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

let options: NextAuthOptions | undefined;

/** Built on first use, not at import: the secret may come from the data directory, which `next build` must not touch. */
export function authOptions(): NextAuthOptions {
  options ??= {
    secret: env().authSecret,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // next-auth's messages join the app's JSON log lines. Only the code and
    // the error's message are kept: its metadata may carry request details.
    logger: {
      warn: (code) => log.warn(`next-auth: ${code}`, { see: `https://next-auth.js.org/warnings#${code.toLowerCase()}` }),
      error: (code, metadata) => log.error(`next-auth: ${code}`, { detail: (metadata instanceof Error ? metadata : metadata.error)?.message }),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        name: "email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const parsed = signInSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const user = await authenticate(parsed.data.email, parsed.data.password);
          return user && { id: user.id, email: user.email, name: user.name };
        },
      }),
    ],
    callbacks: {
      // The token carries only who signed in (sub); role and existence are
      // read from the database on every request, so changes apply at once.
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
      redirect: ({ url, baseUrl }) => {
        const sameOrigin = url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
        return `${baseUrl}${safeCallbackPath(sameOrigin)}`;
      },
    },
  };
  return options;
}

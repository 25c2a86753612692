import { decode } from "next-auth/jwt";
import { isSessionFactor, type SessionFactor } from "@/lib/auth/session-factor";
import { env } from "@/lib/server/env";

// next-auth's session cookie, read straight from a request's Cookie header:
// by the staff pages and actions (lib/auth/sessions/require-staff.ts) and by API routes
// that accept a staff session (lib/auth/sessions/caller.ts). Only the cookie is read:
// next-auth's getToken would also take a "Bearer" Authorization header, which
// here belongs to API tokens.

// The "__Secure-" name is used over HTTPS (browsers accept it only from a
// secure origin), the plain one over HTTP.
const SECURE_COOKIE_NAME = "__Secure-next-auth.session-token";
const PLAIN_COOKIE_NAME = "next-auth.session-token";
const COOKIE_NAMES = [SECURE_COOKIE_NAME, PLAIN_COOKIE_NAME];

/** The name next-auth gives the session cookie here: secure once the app is served over https (lib/auth/sessions/auth-options.ts). */
export function sessionCookieName(): string {
  return env().authUrl?.startsWith("https://") ? SECURE_COOKIE_NAME : PLAIN_COOKIE_NAME;
}

/**
 * Who a session is, when they signed in, and how: the moment decides whether
 * a later "end every session" (a password change, a reset, a deactivation, a
 * factor changed) has voided it (lib/auth/accounts/users.ts findSessionUser).
 */
export type SessionClaims = { userId: string; signedInAt: Date; factor: SessionFactor | undefined };

/** The claims of a valid, unexpired session cookie in a request's Cookie header, or null. */
export function readSessionCookie(cookieHeader: string | null): Promise<SessionClaims | null> {
  const cookies = parseCookies(cookieHeader ?? "");
  return sessionClaims((name) => cookies.get(name));
}

/**
 * The claims of a valid, unexpired session cookie among the cookies `lookup`
 * finds by name, or null. Pages and server actions pass Next's cookie store:
 * after an action sets a new session cookie, the page it renders again sees
 * that one, not the request's (now void) one.
 */
export async function sessionClaims(lookup: (name: string) => string | undefined): Promise<SessionClaims | null> {
  for (const name of COOKIE_NAMES) {
    const token = joinChunks(lookup, name);
    if (!token) continue;
    try {
      const claims = await decode({ token, secret: env().authSecret });
      if (typeof claims?.sub !== "string") return null;
      // A session from before the claim existed counts as signed in long ago: any cut-off ends it.
      const signedInAt = typeof claims.signedInAt === "number" && Number.isFinite(claims.signedInAt) ? claims.signedInAt : 0;
      // A session from before the factor claim says nothing of how it signed in: undefined.
      return { userId: claims.sub, signedInAt: new Date(signedInAt), factor: isSessionFactor(claims.factor) ? claims.factor : undefined };
    } catch {
      return null;
    }
  }
  return null;
}

function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, pair.slice(at + 1).trim());
  }
  return cookies;
}

// next-auth splits a cookie larger than about 4 kB into name.0, name.1, ...
function joinChunks(lookup: (name: string) => string | undefined, name: string): string | undefined {
  const whole = lookup(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let index = 0, chunk = lookup(`${name}.0`); chunk !== undefined; chunk = lookup(`${name}.${++index}`)) chunks.push(chunk);
  return chunks.length ? chunks.join("") : undefined;
}

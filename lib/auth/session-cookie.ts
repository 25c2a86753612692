import { decode } from "next-auth/jwt";
import { env } from "@/lib/server/env";

// Reads next-auth's session cookie from a request, for API routes that accept
// a staff session. Only the cookie is read: next-auth's getToken would also
// take a "Bearer" Authorization header, which here belongs to API tokens.

// The "__Secure-" name is used over HTTPS (browsers accept it only from a
// secure origin), the plain one over HTTP.
const COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** The user id of a valid, unexpired session in the request's cookies, or null. */
export async function sessionUserId(request: Request): Promise<string | null> {
  const cookies = parseCookies(request.headers.get("cookie") ?? "");
  for (const name of COOKIE_NAMES) {
    const token = joinChunks(cookies, name);
    if (!token) continue;
    try {
      const claims = await decode({ token, secret: env().authSecret });
      return typeof claims?.sub === "string" ? claims.sub : null;
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
function joinChunks(cookies: Map<string, string>, name: string): string | undefined {
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let index = 0; cookies.has(`${name}.${index}`); index++) chunks.push(cookies.get(`${name}.${index}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

// Signing in with the store's OpenID provider as a browser does, by hand, for
// HTTP tests: next-auth's CSRF token and sign-in POST (json=true) answer the
// provider's authorization URL and set the state, PKCE and nonce cookies; the
// provider's redirects are followed (test/support/oidc-test-provider.ts signs
// in by itself) until one leads back to the app's callback; the callback is
// then sent with the app's cookies. Each step is its own function, so a test
// can change or repeat one (another state, the same callback twice).

/** Cookies by name, as one site set them. Kept apart per site: a test says which site's it sends. */
export type CookieJar = Map<string, string>;

export type SsoStart = {
  /** What next-auth answered: the provider's authorization URL, or the sign-in page with ?error= when it could not start. */
  url: string;
  /** The app's cookies so far: CSRF, callback URL, and the state, PKCE and nonce checks. */
  appCookies: CookieJar;
};

export type CallbackAnswer = {
  /** The callback's own answer's (302 when it redirects, as it always should). */
  status: number;
  /** Where a browser lands, absolute: the callback's Location, or where next-auth's error endpoint sent that on to. */
  location: string;
  /** The session cookie's value, when one was set on the way. */
  sessionToken: string | undefined;
};

// The session cookie over http (lib/auth/sessions/session-cookie.ts), as these tests' apps are served.
const SESSION_COOKIE = "next-auth.session-token";

// A provider that never leads back is a broken test, not a slow machine: a sign-in is three hops here.
const MOST_HOPS = 10;

/** Asks next-auth to sign in with the provider of id "oidc", as the sign-in page's button does. */
export async function startSsoSignIn(appUrl: string, callbackPath = "/plants"): Promise<SsoStart> {
  const appCookies: CookieJar = new Map();
  const csrf = await fetch(`${appUrl}/api/auth/csrf`);
  storeCookies(appCookies, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${appUrl}/api/auth/signin/oidc`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(appCookies) },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${appUrl}${callbackPath}`, json: "true" }),
  });
  storeCookies(appCookies, response);
  if (response.status !== 200) throw new Error(`next-auth's sign-in answered ${response.status}: ${await response.text()}`);
  const { url } = (await response.json()) as { url: string };
  return { url, appCookies };
}

/** Follows the provider's redirects from the authorization URL until one leads to the app; answers that URL (the callback, with ?code= or ?error=). */
export async function authorizeAtProvider(authorizationUrl: string, appUrl: string): Promise<string> {
  const providerCookies: CookieJar = new Map();
  let url = authorizationUrl;
  for (let hop = 0; hop < MOST_HOPS; hop++) {
    if (url.startsWith(`${appUrl}/`)) return url;
    const response = await fetch(url, { redirect: "manual", headers: { cookie: cookieHeader(providerCookies) } });
    storeCookies(providerCookies, response);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) {
      throw new Error(`the provider answered ${response.status} at ${url}, not a redirect: ${await response.text()}`);
    }
    await response.arrayBuffer();
    url = new URL(location, url).href;
  }
  throw new Error(`the provider did not lead back to ${appUrl} within ${MOST_HOPS} redirects`);
}

/**
 * Sends the provider's redirect to the app's callback with the app's cookies,
 * which the answer's Set-Cookie then changes, and follows next-auth's own hops
 * (a refused callback goes to /api/auth/error, which sends on to the sign-in
 * page) to where a browser would land.
 */
export async function finishSsoSignIn(callbackUrl: string, appCookies: CookieJar): Promise<CallbackAnswer> {
  const response = await fetch(callbackUrl, { redirect: "manual", headers: { cookie: cookieHeader(appCookies) } });
  let sessionToken = storeCookies(appCookies, response);
  await response.arrayBuffer();
  let location = new URL(response.headers.get("location") ?? "", callbackUrl).href;
  for (let hop = 0; hop < MOST_HOPS && new URL(location).pathname.startsWith("/api/auth/"); hop++) {
    const next = await fetch(location, { redirect: "manual", headers: { cookie: cookieHeader(appCookies) } });
    sessionToken = storeCookies(appCookies, next) ?? sessionToken;
    await next.arrayBuffer();
    if (next.status < 300 || next.status > 399) break;
    location = new URL(next.headers.get("location") ?? "", location).href;
  }
  return { status: response.status, location, sessionToken };
}

/** Where next-auth's answer to the sign-in POST leads a browser when it is not the provider (it could not start): the sign-in page with ?error=. */
export async function landingOf(start: SsoStart): Promise<string> {
  return (await finishSsoSignIn(start.url, start.appCookies)).location;
}

/** The whole round trip, for a test about what the app decides rather than about one step. */
export async function signInWithSso(appUrl: string): Promise<CallbackAnswer> {
  const { url, appCookies } = await startSsoSignIn(appUrl);
  return finishSsoSignIn(await authorizeAtProvider(url, appUrl), appCookies);
}

/** The email of the session a session cookie holds, or null when it holds none. */
export async function sessionEmail(appUrl: string, sessionToken: string): Promise<string | null> {
  const response = await fetch(`${appUrl}/api/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${sessionToken}` } });
  const session = (await response.json()) as { user?: { email?: string } };
  return session.user?.email ?? null;
}

/**
 * Keeps what a response's Set-Cookie sets, and forgets what it expires (as
 * next-auth does with a check's cookie once used); answers the session
 * cookie's value when one was set.
 */
export function storeCookies(jar: CookieJar, response: Response): string | undefined {
  let sessionToken: string | undefined;
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split(";").map((part) => part.trim());
    const equals = pair.indexOf("=");
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    if (value === "" || attributes.some(expires)) {
      jar.delete(name);
      continue;
    }
    jar.set(name, value);
    if (name === SESSION_COOKIE) sessionToken = value;
  }
  return sessionToken;
}

function expires(attribute: string): boolean {
  const [name = "", value = ""] = attribute.split("=");
  if (name.toLowerCase() === "max-age") return Number(value) <= 0;
  if (name.toLowerCase() === "expires") return Date.parse(value) <= Date.now();
  return false;
}

export const cookieHeader = (jar: CookieJar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

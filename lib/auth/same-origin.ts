// Whether a request was sent by this app's own pages. A browser attaches the
// session cookie to requests that other sites trigger (forms, fetch with
// no-cors, and same-site pages on another port even get SameSite=Lax cookies),
// so a cookie alone never proves the staff member meant to send it.

/**
 * True only when the browser says so: Fetch Metadata's Sec-Fetch-Site is
 * "same-origin", or, from browsers that do not send it, the Origin header
 * names this app's origin. "same-site" is not enough: another port or
 * subdomain is another origin.
 */
export function isSameOriginRequest(request: Request, appOrigin: string): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null) return fetchSite === "same-origin";
  const origin = request.headers.get("origin");
  return origin !== null && origin === appOrigin;
}

/**
 * This app's origin: the configured public URL's, else the host the browser
 * addressed (a proxy's X-Forwarded-Host first, as Next.js's own server-action
 * check does). A page on another origin cannot forge these headers: a
 * cross-origin fetch may only send CORS-safelisted ones without a preflight.
 */
export function appOrigin(request: Request, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  const url = new URL(request.url);
  return addressedOrigin(request.headers, url.protocol.slice(0, -1)) ?? url.origin;
}

/** The origin a request's headers say the browser addressed (a proxy's X-Forwarded-* first), if they name a host. */
export function addressedOrigin(headers: Headers, defaultProtocol = "http"): string | undefined {
  const host = firstValue(headers.get("x-forwarded-host")) ?? headers.get("host");
  if (!host) return undefined;
  return `${firstValue(headers.get("x-forwarded-proto")) ?? defaultProtocol}://${host}`;
}

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined;
}

/**
 * Whether a GET that reads with the session cookie (the staff's CSV
 * download) was asked for by the person: from this app's own pages
 * (Sec-Fetch-Site: same-origin) or typed or bookmarked ("none"). Another
 * site's link, frame or subresource ("cross-site", "same-site") is not, even
 * though SameSite=Lax lets the cookie ride along on a top-level link. A
 * browser that sends no Fetch Metadata is let through: such a GET changes
 * nothing, and its answer goes only to the person's own browser.
 */
export function isOwnNavigation(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}

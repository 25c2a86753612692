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

/** This app's origin: the configured public URL's, else the one the request was addressed to. */
export function appOrigin(request: Request, publicUrl: string | undefined): string {
  return new URL(publicUrl ?? request.url).origin;
}

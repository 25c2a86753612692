// The headers that harden every answer against the browser attacks of the
// day. The server (lib/server/http-server.ts) sets them on every response;
// pages replace the strict default CSP with one carrying a fresh nonce
// (proxy.ts), so Next's own inline scripts, and only they, may run, and the
// service worker's script gets a CSP of its own (the server sets it: Next
// keeps a header already set over the one a static route answers with).

/** For every answer: no sniffing, no framing, no full URLs in Referer, and a CSP that allows nothing (right for JSON). */
export function securityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    // Only once the app is known to be served over https (NEXTAUTH_URL); a year, this host only.
    ...(https && { "strict-transport-security": "max-age=31536000" }),
  };
}

/**
 * A page's CSP: scripts only with this response's nonce (and what they load,
 * 'strict-dynamic'), everything else from the app's own origin. Inline style
 * attributes stay allowed: React and the API reference (Swagger UI) set them.
 */
export function pageContentSecurityPolicy(nonce: string, { development }: { development: boolean }): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code for its debugging aids; production needs no eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // The app's service worker (/sw.js) and web app manifest, named rather than left to fall back on script-src and default-src.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Where the app's service worker is served (app/sw.js/route.ts); its answer gets serviceWorkerContentSecurityPolicy. */
export const SERVICE_WORKER_PATH = "/sw.js";

/**
 * The service worker's own CSP (a worker's policy comes with its script):
 * it loads no code, and fetches only from the app's origin: the pages and
 * files it keeps for offline use, and POST /plants for the plants waiting to
 * be sent. default-src 'none' alone would refuse even those fetches.
 */
export function serviceWorkerContentSecurityPolicy(): string {
  return ["default-src 'none'", "connect-src 'self'"].join("; ");
}

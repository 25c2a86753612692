// The headers that harden every answer against the browser attacks of the
// day. The server (lib/server/http-server.ts) sets them on every response;
// pages replace the strict default CSP with one carrying a fresh nonce
// (proxy.ts), so Next's own inline scripts, and only they, may run.

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
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

import { type NextRequest, NextResponse } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/http/security-headers";

// Next.js's proxy (middleware before Next 16), for pages only: a fresh nonce
// per request, in the CSP Next reads from the request (it stamps the nonce on
// its own inline scripts) and in the one the browser enforces. It decides no
// access: every page and handler checks the session itself.
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, { development: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Not the API (/plants, /plants/{id}; /plants/new is a page), its document, the probes or
  // static files: their answers keep the strict default CSP, and skip this step.
  matcher: ["/((?!plants$|plants/(?!new$)[^/]*$|openapi\\.json$|healthz$|readyz$|api/|_next/static/|_next/image|favicon\\.ico$).*)"],
};

import { type NextRequest, NextResponse } from "next/server";
import { apiResource, PLANT_PAGE_ROUTE, plantListPageFor, wantsPage } from "@/lib/http/browser-pages";
import { pageContentSecurityPolicy } from "@/lib/http/security-headers";

// Next.js's proxy (middleware before Next 16). For pages: a fresh nonce per
// request, in the CSP Next reads from the request (it stamps the nonce on its
// own inline scripts) and in the one the browser enforces. For the API's
// /plants and /plants/{id}: a browser's page load gets the staff page for it
// (lib/http/browser-pages.ts), anything else goes on to the API untouched.
// It decides no access: every page and handler checks the session itself.
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // The plant page's internal route is no URL of its own: one plant, one URL.
  if (pathname === PLANT_PAGE_ROUTE || pathname.startsWith(`${PLANT_PAGE_ROUTE}/`)) {
    return withPageNonce(request, (init) => NextResponse.rewrite(new URL(PLANT_PAGE_ROUTE, request.url), init));
  }
  const resource = apiResource(pathname);
  if (resource === undefined) return withPageNonce(request, (init) => NextResponse.next(init));
  if (resource.kind === "operation" || !wantsPage(request)) return NextResponse.next();
  // The answer at these URLs depends on Accept (RFC 9110 section 12.5.5).
  const response =
    resource.kind === "plants"
      ? NextResponse.redirect(new URL(plantListPageFor(request.nextUrl), request.url), 303)
      : withPageNonce(request, (init) => NextResponse.rewrite(plantPageUrl(request, resource.segment), init));
  response.headers.append("vary", "Accept");
  return response;
}

/** The plant page's route for the plant `segment` names, with the request's query (the page of its history it shows): Next's rewrite keeps only the destination's. */
function plantPageUrl(request: NextRequest, segment: string): URL {
  const url = new URL(`${PLANT_PAGE_ROUTE}/${segment}`, request.url);
  url.search = request.nextUrl.search;
  return url;
}

function withPageNonce(request: NextRequest, respond: (init: { request: { headers: Headers } }) => NextResponse): NextResponse {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, { development: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = respond({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    // Pages. Not the API (/plants, /plants/{id}, /plants/{id}/history; /plants/new is a page), the staff's CSV downloads, the API's
    // document, the probes or static files (the service worker, which brings its own CSP, the manifest and
    // the icon among them): their answers keep the strict default CSP.
    "/((?!plants$|plants/(?!new$)[^/]*$|plants/[^/]+/history$|plants\\.csv$|activity\\.csv$|activity/events$|openapi\\.json$|healthz$|readyz$|api/|_next/static/|_next/image|favicon\\.ico$|sw\\.js$|manifest\\.webmanifest$|icon\\.svg$).*)",
    // The API's resources that have a page, for requests without credentials (a browser's, or the staff
    // pages' own calls): a program with a token never meets the proxy there. Literals: Next reads them at build.
    { source: "/plants", missing: [{ type: "header", key: "authorization" }] },
    { source: "/plants/:id", missing: [{ type: "header", key: "authorization" }] },
  ],
};

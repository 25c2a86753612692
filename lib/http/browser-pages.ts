import { negotiateMediaType } from "@/lib/http/content-negotiation";

// The API's resources as the staff see them in a browser (issue 11): a
// person who opens /plants/{id} gets the plant's page, and one who opens
// /plants the list, while a program gets JSON from the very same URLs,
// unchanged. Which one a request wants is content negotiation (RFC 9110
// section 12.5.1): the proxy (proxy.ts) decides it before any route runs,
// and rewrites a page's request to the page's own route, as Next.js's
// "content negotiation" guide does with a rewrite on Accept; next.config.js
// does the same for Next's own router's requests for a plant's page.

/** The internal route of a plant's page (app/(staff)/plant-page/[id]); it has no URL of its own. */
export const PLANT_PAGE_ROUTE = "/plant-page";

/** Under /plants/ besides plants: pages of their own. */
const PAGES_UNDER_PLANTS = new Set(["new"]);
/** Under /plants/ besides plants: operations of their own, with no page. */
const OPERATIONS_UNDER_PLANTS = new Set(["batch", "events"]);

export type ApiResource = { kind: "plants" } | { kind: "plant"; segment: string } | { kind: "operation" };

/**
 * The API resource a path names: the plants, one plant (by the id's segment
 * as sent, still encoded) or another operation (no page); undefined for a page's path.
 */
export function apiResource(pathname: string): ApiResource | undefined {
  if (pathname === "/plants") return { kind: "plants" };
  const segment = /^\/plants\/([^/]+)$/.exec(pathname)?.[1];
  if (segment === undefined || PAGES_UNDER_PLANTS.has(segment)) return undefined;
  return OPERATIONS_UNDER_PLANTS.has(segment) ? { kind: "operation" } : { kind: "plant", segment };
}

// In the API's own order of preference: JSON, unless the client weighs HTML higher.
const PAGE_OR_DATA = ["application/json", "text/html"] as const;

/**
 * Whether a request to an API resource wants its page rather than the API's
 * JSON: a browser loading it as a page, whose Accept weighs text/html above
 * JSON (a program's `*\/*`, no Accept, or application/json never does). Never
 * a request with credentials in Authorization: that is a program, whatever
 * else it sends. (Next's router fetching a page's payload is told by its RSC
 * header, which Next hides from the proxy: next.config.js's rewrite decides those.)
 */
export function wantsPage(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (request.headers.has("authorization")) return false;
  return negotiateMediaType(request.headers.get("accept"), PAGE_OR_DATA) === "text/html";
}

/** The staff list's URL for a browser that opened GET /plants?…: the filters both understand carry over (limit and after are the API's own). */
export function plantListPageFor(url: URL): string {
  const query = new URLSearchParams();
  for (const name of ["q", "tag"]) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  const text = query.toString();
  return text === "" ? "/" : `/?${text}`;
}

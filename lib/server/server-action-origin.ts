import type { IncomingMessage } from "node:http";
import { operationPath } from "@/lib/api/operations";
import { appOrigin, isSameOriginRequest } from "@/lib/auth/same-origin";
import { ApiError } from "@/lib/http/api-error";
import { log } from "@/lib/server/log";

// Next.js refuses a server action posted from another origin (its CSRF
// check: the Origin's host against X-Forwarded-Host, else Host; in
// next/dist/server/app-render/action-handler.js), but answers it with a 500
// and logs an error, as if the app had failed (issue 20). The server refuses
// such a request first, with a 403 and a warning: one who forges a request
// is not the app's fault. Foreign is what the app's own same-origin rule says
// (lib/auth/same-origin.ts: Fetch Metadata, else the Origin against
// NEXTAUTH_URL's origin or the host the browser addressed), and also whatever
// Next's check would refuse, so that Next never gets to answer one with a 500.

// The headers the two rules read; nothing else of the request is copied.
const ORIGIN_HEADERS = ["origin", "sec-fetch-site", "host", "x-forwarded-host", "x-forwarded-proto"] as const;

/** The refusal of a server action from another origin; undefined for any other request. */
export function refuseForeignServerAction(request: IncomingMessage, publicUrl: string | undefined): ApiError | undefined {
  if (!isServerAction(request)) return undefined;
  const { origin, "sec-fetch-site": fetchSite } = request.headers;
  // Not a browser's request (a browser sends Origin with every POST): no cookie rides on it that a forger could use.
  if (origin === undefined && fetchSite === undefined) return undefined;
  if (sameForApp(request, publicUrl) && sameForNext(request)) return undefined;
  log.warn("server action from another origin refused", {
    path: (request.url ?? "").split("?")[0],
    ...Object.fromEntries(ORIGIN_HEADERS.map((name) => [name, truncated(request.headers[name])])),
  });
  return new ApiError("Forbidden", "a server action is accepted only from this app's own pages");
}

/**
 * Whether Next.js takes the request for a server action: a POST with its
 * Next-Action header (the app's own fetch), or a form posted as multipart (a
 * form sent before the page's script ran). Never on the API's paths: route
 * handlers are not actions, and CORS may let other origins call them.
 */
function isServerAction(request: IncomingMessage): boolean {
  if (request.method !== "POST") return false;
  const action = request.headers["next-action"] !== undefined || (request.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data");
  return action && operationPath((request.url ?? "/").split("?")[0]!) === undefined;
}

function sameForApp(request: IncomingMessage, publicUrl: string | undefined): boolean {
  const headers = new Headers();
  for (const name of ORIGIN_HEADERS) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  // The URL stands in only where no Host was sent (HTTP/1.0): this server speaks plain http.
  const web = new Request("http://localhost/", { headers });
  return isSameOriginRequest(web, appOrigin(web, publicUrl));
}

/** Next's own check: the Origin's host is the first X-Forwarded-Host, else the Host, and an Origin that is no URL fails. */
function sameForNext(request: IncomingMessage): boolean {
  const { origin, host } = request.headers;
  if (origin === undefined) return true;
  const originHost = origin === "null" ? "null" : URL.canParse(origin) ? new URL(origin).host : undefined;
  const forwardedHost = request.headers["x-forwarded-host"];
  const addressed = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost?.split(",")[0]?.trim()) || host;
  return originHost !== undefined && originHost === addressed;
}

// As Next does for the same values: a forger's header must not fill the log.
function truncated(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(", ") : value;
  return text !== undefined && text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

import type { NextRequest } from "next/server";

// RFC 8288 web linking, for paging.

/**
 * A Link header naming the next page: the request's own path with the given
 * query parameters. The target is a relative reference (RFC 8288 section 3.1:
 * resolved against the request URL), so it stays right behind a proxy that
 * rewrites the host, which request.url would not know.
 */
export function nextPageLink(request: NextRequest, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return `<${request.nextUrl.pathname}${search && `?${search}`}>; rel="next"`;
}

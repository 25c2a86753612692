// The static files a page needs offline, as its own HTML names them: its
// scripts and stylesheets (/_next/static/...), in <script> and <link> tags
// and in the RSC payload, which lists the chunks of the page's client
// components. Read from the HTML, not from a build manifest, so the service
// worker keeps exactly what the page it keeps will ask for.

// Up to the end of the attribute or string: a quote, whitespace, a backslash (an escaped quote in the payload), or a query.
const STATIC_FILE = /\/_next\/static\/[^"'\s\\<>()&?]+/g;

/** The paths of the static files the page's HTML names, each once. */
export function pageAssetPaths(html: string): string[] {
  return [...new Set(html.match(STATIC_FILE) ?? [])];
}

// The static files a page needs offline, as its own HTML names them: its
// scripts and stylesheets (/_next/static/...), in <script> and <link> tags
// and in the RSC payload, which lists the chunks of the page's client
// components. Read from the HTML, not from a build manifest, so the service
// worker keeps exactly what the page it keeps will ask for; and from those
// scripts, the chunks they load later (a dynamic import()), which a page
// loads when it needs them rather than with its first script (issue 20).

// Up to the end of the attribute or string: a quote, whitespace, a backslash (an escaped quote in the payload), or a query.
const STATIC_FILE = /\/_next\/static\/[^"'\s\\<>()&?]+/g;

// Turbopack's loader for a dynamic import() names its chunks relative to /_next/ (TURBOPACK_CHUNK_BASE_PATH):
// `Promise.all(["static/chunks/0p4h.js"].map(e.l))`.
const LOADED_CHUNK = /["'](static\/chunks\/[\w\-.~]+\.(?:js|css))["']/g;

/** The paths of the static files the page's HTML names, each once. */
export function pageAssetPaths(html: string): string[] {
  return [...new Set(html.match(STATIC_FILE) ?? [])];
}

/** The paths of the chunks a script loads later (its dynamic imports), each once. */
export function loadedChunkPaths(script: string): string[] {
  return [...new Set([...script.matchAll(LOADED_CHUNK)].map((match) => `/_next/${match[1]}`))];
}

/**
 * Every static file a page may load: those its HTML names, the chunks their
 * scripts load later, and theirs in turn. `visit` is called once for each
 * file, a level at a time, and answers its text (undefined if it cannot be
 * had), in which a script's chunks are looked for.
 */
export async function pageAssetClosure(html: string, visit: (path: string) => Promise<string | undefined>): Promise<string[]> {
  const found = new Set<string>();
  let level = pageAssetPaths(html);
  while (level.length > 0) {
    for (const path of level) found.add(path);
    const texts = await Promise.all(level.map(async (path) => ({ path, text: await visit(path) })));
    const loaded = texts.flatMap(({ path, text }) => (path.endsWith(".js") && text !== undefined ? loadedChunkPaths(text) : []));
    level = [...new Set(loaded)].filter((path) => !found.has(path));
  }
  return [...found];
}

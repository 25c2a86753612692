// Where sign-in may send a visitor back to. Only a path on this site: an
// absolute URL, a scheme-relative "//evil.example" or "/\evil.example" (which
// browsers read as "//") would make sign-in an open redirect.

export const HOME_PATH = "/";

export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string") return HOME_PATH;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return HOME_PATH;
  // Control characters and whitespace are dropped by URL parsers in ways that can turn "/\t/evil" into "//evil".
  if (/[\s\p{Cc}\\]/u.test(value)) return HOME_PATH;
  return value;
}

/** The sign-in page's URL that brings the visitor back to `path` afterwards. */
export function signInPath(path: string): string {
  const back = safeCallbackPath(path);
  return back === HOME_PATH ? "/sign-in" : `/sign-in?callbackUrl=${encodeURIComponent(back)}`;
}

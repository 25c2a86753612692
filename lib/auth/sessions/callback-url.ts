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

// next-auth keeps where a sign-in began from in this cookie (with __Secure- over https), as an absolute URL.
const CALLBACK_COOKIES = ["__Secure-next-auth.callback-url", "next-auth.callback-url"];

/** Where next-auth's callback-url cookie says a sign-in goes back to, as a path on this site (HOME_PATH when it says nothing safe). */
export function callbackPathOf(cookies: { get(name: string): { value: string } | undefined }): string {
  const value = CALLBACK_COOKIES.map((name) => cookies.get(name)?.value).find((each) => each !== undefined);
  if (value === undefined) return HOME_PATH;
  const path = URL.canParse(value) ? new URL(value) : undefined;
  // next-auth wrote it from its own base URL: only its path and query are taken, and checked as any other.
  return safeCallbackPath(path ? `${path.pathname}${path.search}` : value);
}

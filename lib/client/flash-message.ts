// A message for the next page a person lands on ("Deleted Monstera (id 7)."),
// as a short-lived cookie: the page that reads it renders it on the server,
// so it is in the page's first paint, and it is shown once (FlashMessage
// removes it) rather than kept in a URL that a reload or a shared link
// would show again. Set and removed by the browser, or set by a server action
// for the page its answer draws (app/(staff)/activity/actions.ts). A message
// meant for one page only is scoped to its path; one said in a status region
// is taken by the page's script instead (takeFlashMessage), as a region must
// be on the page before it speaks.

export const FLASH_COOKIE = "plant-store-flash";

// Long enough for the next page to load on a slow connection, short enough that a message never turns up on a later visit.
export const FLASH_SECONDS = 60;

export function leaveFlashMessage(text: string): void {
  document.cookie = `${FLASH_COOKIE}=${encodeURIComponent(text)}; Path=/; Max-Age=${FLASH_SECONDS}; SameSite=Strict`;
}

/** Removes the message left for `path` (the one it was left with: a cookie is removed only by its own path). */
export function removeFlashMessage(path = "/"): void {
  document.cookie = `${FLASH_COOKIE}=; Path=${path}; Max-Age=0; SameSite=Strict`;
}

/**
 * The message left for the page at `path`, removed as it is read: said once, even when the router shows the
 * page again from its cache (Back), as a message rendered from the server's read of the cookie would be.
 */
export function takeFlashMessage(path: string): string | undefined {
  // Cookies of a longer path come first (RFC 6265 section 5.4): this page's own before any page's.
  const cookie = document.cookie.split("; ").find((entry) => entry.startsWith(`${FLASH_COOKIE}=`));
  if (cookie === undefined) return undefined;
  removeFlashMessage(path);
  return decodeURIComponent(cookie.slice(FLASH_COOKIE.length + 1));
}

// A message for the next page a person lands on ("Deleted Monstera (id 7)."),
// as a short-lived cookie: the page that reads it renders it on the server,
// so it is in the page's first paint, and it is shown once (FlashMessage
// removes it) rather than kept in a URL that a reload or a shared link
// would show again. Set and removed by the browser; the server only reads it.

export const FLASH_COOKIE = "plant-store-flash";

// Long enough for the next page to load on a slow connection, short enough that a message never turns up on a later visit.
const FLASH_SECONDS = 60;

export function leaveFlashMessage(text: string): void {
  document.cookie = `${FLASH_COOKIE}=${encodeURIComponent(text)}; Path=/; Max-Age=${FLASH_SECONDS}; SameSite=Strict`;
}

export function removeFlashMessage(): void {
  document.cookie = `${FLASH_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`;
}

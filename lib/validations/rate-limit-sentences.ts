// What a person is told when a rate limit holds them back: how long to wait,
// in whole minutes rounded up, never "0 minutes". Browser-safe: imports
// nothing, so a page or a form may say it as the server does.

/** "Wait 15 minutes, then try again." for 900 seconds. */
export function waitSentence(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Wait ${minutes} minute${minutes === 1 ? "" : "s"}, then try again.`;
}

/** One-time links tried from one client address (RATE_LIMIT_LINK_ADDRESS). */
export function tooManyLinkAttempts(seconds: number): string {
  return `Too many links tried from your address. ${waitSentence(seconds)}`;
}

/** "Forgot your password?" asked too often from one address, or for one email (RATE_LIMIT_RESET_REQUEST_*). */
export function tooManyResetRequests(seconds: number): string {
  return `Too many reset requests. ${waitSentence(seconds)}`;
}

/** Passkey sign-ins started too often from one address (RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS): the password still works. */
export function tooManyPasskeyChallenges(seconds: number): string {
  return `Too many passkey sign-ins started from your address. ${waitSentence(seconds)} You can still sign in with your email and password.`;
}

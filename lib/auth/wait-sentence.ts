// How long a rate-limited person must wait, in the words the pages use: whole
// minutes, rounded up, never "0 minutes". Browser-safe: imports nothing.

/** "Wait 15 minutes, then try again." for 900 seconds. */
export function waitSentence(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Wait ${minutes} minute${minutes === 1 ? "" : "s"}, then try again.`;
}

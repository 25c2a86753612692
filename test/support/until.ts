/**
 * Waits for `check` to answer something, for up to `seconds`, looking every
 * 200 ms: where expect.poll cannot go (a hook, or a value to go on with).
 */
export async function until<T>(check: () => T | undefined | null | false, seconds: number, what: string): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const found = check();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`waited ${seconds} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

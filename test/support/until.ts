import { HANG_GUARD_MS } from "./hang-guard";

/**
 * Waits for `check` to answer something, looking every 200 ms, until the hang
 * guard runs out: where expect.poll cannot go (a hook, or a value to go on with).
 */
export async function until<T>(check: () => T | undefined | null | false, what: string): Promise<T> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const found = check();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`waited ${HANG_GUARD_MS / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

import { LinkUnusableError } from "@/lib/auth/account-errors";
import { openLink, type OpenedLink } from "@/lib/auth/accounts/account-links";
import { blockedFor, countFailure } from "@/lib/http/rate-limit";
import { tooManyLinkAttempts } from "@/lib/validations/rate-limit-sentences";
import type { LinkPurpose } from "@/lib/validations/user-options";

// Trying one-time links from one client address is limited (issue 21,
// RATE_LIMIT_LINK_ADDRESS). A secret cannot be guessed (256 bits), but a
// script that tries links costs a lookup each, and one that finds old links
// (a shared screen, a forwarded email) should not try them all: every link
// that opens as not usable, and every use refused for it, counts against the
// address; once it has spent its allowance, no link is looked up for it until
// the window has passed. Valid links cost nothing, so a person who opens their
// invitation a few times is never stopped.

/** A use of a link refused before the link was looked up: the address has tried too many. */
export class TooManyLinkAttemptsError extends Error {
  override name = "TooManyLinkAttemptsError";

  constructor(readonly waitSeconds: number) {
    super(tooManyLinkAttempts(waitSeconds));
  }
}

export type LinkOpening = OpenedLink | { state: "rate-limited"; waitSeconds: number };

/** Opens the link for a page, within `address`'s allowance: "rate-limited" (not looked up) once it is spent. */
export async function openLinkFrom(address: string, purpose: LinkPurpose, secret: string): Promise<LinkOpening> {
  const wait = await blockedFor("linkAddress", address);
  if (wait !== undefined) return { state: "rate-limited", waitSeconds: wait };
  const opened = await openLink(purpose, secret);
  if (opened.state !== "valid") await countFailure("linkAddress", address);
  return opened;
}

/**
 * Runs `act` (accepting an invitation, a reset) for `address`, within its
 * allowance: TooManyLinkAttemptsError without running it once it is spent; a
 * LinkUnusableError from `act` counts against the address, and is rethrown.
 */
export async function tryLinkFrom<T>(address: string, act: () => Promise<T>): Promise<T> {
  const wait = await blockedFor("linkAddress", address);
  if (wait !== undefined) throw new TooManyLinkAttemptsError(wait);
  try {
    return await act();
  } catch (error) {
    if (error instanceof LinkUnusableError) await countFailure("linkAddress", address);
    throw error;
  }
}

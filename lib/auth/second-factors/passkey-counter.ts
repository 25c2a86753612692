// The authenticator's signature counter (WebAuthn §6.1.1, §7.2 step 22): when
// either the stored or the received counter is nonzero, the received one must
// be greater. One that is not may be a cloned authenticator, so the assertion
// is refused. Authenticators that keep no counter (many synced passkeys)
// always send 0, and 0 after 0 is no sign of anything.

/** Whether an assertion's counter `received` may follow the passkey's stored `stored`. */
export function counterAdvances(stored: bigint, received: bigint): boolean {
  if (stored === 0n && received === 0n) return true;
  return received > stored;
}

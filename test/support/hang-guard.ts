// How long a test waits for what the app, a browser or another process does in
// its own time before it calls it a hang (issue 31). Minutes, never a speed
// check: a loaded machine may take many times longer than a quiet one, and the
// outcome of a test must not depend on that. A time a user would notice is a
// bench's to measure (`npm run bench*`), not a test's.
export const HANG_GUARD_MS = 180_000;

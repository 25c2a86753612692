import { afterAll, vi } from "vitest";
import { forgetProcessGlobals } from "@/lib/server/process-global";

// A setup file of the unit projects, whose files share a worker process rather
// than each starting one of their own (issue 44: a process per file was two
// thirds of the unit tests' CPU). Each file still starts from what a process of
// its own would give it: the codebase's modules evaluated afresh, none of the
// per-process state they keep on globalThis (lib/server/process-global.ts: the
// database client, the mailer, the metrics...), and, after it, the environment,
// timers and globals as they were. Packages from node_modules stay loaded: they
// keep no state of ours, and loading them again is the cost this saves.

forgetProcessGlobals();
vi.resetModules();

// Registered before the file's own hooks, so run after them (Vitest runs afterAll hooks last first).
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

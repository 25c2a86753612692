import { testDatabaseProvider } from "./test-database";

/**
 * The stop signals a shutdown test sends. SIGTERM on both engines: what a stop drains and stores is the
 * database's to keep. SIGHUP (a closed terminal) takes the very same path from its listener on
 * (lib/server/stop-signals.ts), which no engine changes: tested once, on the default engine, where it
 * was found to kill every process at once (issue 31).
 */
export const STOP_SIGNALS: readonly ("SIGTERM" | "SIGHUP")[] = testDatabaseProvider() === "sqlite" ? ["SIGTERM", "SIGHUP"] : ["SIGTERM"];

/** Whether this run tests SIGHUP (see STOP_SIGNALS). */
export const TESTS_SIGHUP = STOP_SIGNALS.includes("SIGHUP");

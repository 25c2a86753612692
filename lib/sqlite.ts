// SQLite connection settings shared by the Prisma client and the migrator.

// WAL lets readers run beside the one writer; synchronous=FULL fsyncs the WAL
// on every commit, so a 200 means the row survives a power loss
// (better-sqlite3 otherwise runs WAL with NORMAL, which may lose the last commits).
export const SQLITE_PRAGMAS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;";

// How long a writer waits for another process's lock (the token CLI, a second
// instance) before SQLITE_BUSY. better-sqlite3 blocks its thread while it waits.
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

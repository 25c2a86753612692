import { rmSync } from "node:fs";

// The files SQLite keeps beside a database, named for it with a suffix: its
// rollback journal, or in WAL mode its write-ahead log and shared-memory
// index (https://sqlite.org/tempfiles.html). A copy that failed half-way
// leaves its journal as well as itself: a rollback journal is made as soon as
// the copy's pages spill from the cache to the file, and a write that fails
// for want of room leaves it there.

export const SQLITE_SIDE_FILE_SUFFIXES = ["-journal", "-wal", "-shm"] as const;

/** Removes the SQLite file at `file` and the files SQLite keeps beside it, whichever exist. */
export function removeSqliteFiles(file: string): void {
  for (const suffix of ["", ...SQLITE_SIDE_FILE_SUFFIXES]) rmSync(file + suffix, { force: true });
}

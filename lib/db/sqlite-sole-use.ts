import Database from "better-sqlite3";

// Sole use of a SQLite database, for the one command that may replace it
// (issue 23, db restore): proof that no other process has it open, and a lock
// that keeps it so while the file is swapped.
//
// How it knows: the app, its webhook worker and the CLIs all keep the database
// in WAL mode (SQLITE_PRAGMAS), and in WAL mode every connection holds a shared
// lock on the database file for as long as it is open, idle or not. SQLite
// lets a database leave WAL mode only on a connection that can take the file's
// exclusive lock, which is to say only when it is the one connection open
// anywhere; otherwise it answers SQLITE_BUSY at once (busy timeout 0). Leaving
// WAL mode also folds the WAL into the file and removes the -wal and -shm
// files, so the database is then one file. BEGIN EXCLUSIVE then keeps every
// other connection out until release().
//
// Left in rollback mode, the file also protects itself after a swap: a process
// that opened it by its old name while we held it, and reaches it once we
// let go, finds it renamed, and SQLite refuses to write to (or switch into WAL
// mode) a database that has moved (SQLITE_READONLY_DBMOVED): it cannot write
// into the replaced file, nor a WAL the new one would later read. The app
// sets WAL mode again when it next starts.

export class DatabaseInUseError extends Error {
  override name = "DatabaseInUseError";
}

export type SoleUse = {
  /** Lets go of the database (nothing was written through this connection). */
  release(): void;
};

/** Takes sole use of the SQLite file at `databasePath`, or throws DatabaseInUseError when another process has it open. */
export function takeSoleUse(databasePath: string): SoleUse {
  const connection = new Database(databasePath, { fileMustExist: true, timeout: 0 });
  try {
    const [row] = connection.pragma("journal_mode = DELETE") as { journal_mode: string }[];
    if (row?.journal_mode !== "delete") throw new Error(`${databasePath} would not leave journal mode ${row?.journal_mode}`);
    connection.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    connection.close();
    if (isBusy(error)) {
      throw new DatabaseInUseError(
        `${databasePath} is open in another process (the app, its webhook worker or a CLI): SQLite would not give this command ` +
          "sole use of it (a database leaves WAL mode only when no other connection has it open). Stop the app and try again.",
      );
    }
    throw error;
  }
  return {
    release: () => {
      // ROLLBACK, not COMMIT: nothing was written, and nothing must be, least of all a journal by the database's name.
      connection.exec("ROLLBACK");
      connection.close();
    },
  };
}

function isBusy(error: unknown): boolean {
  return error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("SQLITE_BUSY");
}

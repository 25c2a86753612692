import { chownSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { utcStamp } from "@/lib/backup/backup-files";
import { checkRestorable, type Restorable, RestoreRefusal } from "@/lib/backup/check-restorable";
import { flushToDisk } from "@/lib/db/flush-to-disk";
import { removeSqliteFiles } from "@/lib/db/sqlite-files";
import { takeSoleUse } from "@/lib/db/sqlite-sole-use";

// db restore (issue 23): replaces the SQLite database of a stopped app with a
// backup. The backup is copied beside the database as <db>.restoring and
// checked there (lib/backup/check-restorable.ts); the backup itself is only
// read. Then, with sole use of the database (lib/db/sqlite-sole-use.ts: it
// refuses while any process has it open), the database is renamed to
// <db>.replaced-<UTC time> and the copy renamed into its place. Each step
// leaves a whole database by the database's name: the old one, or the new
// one, flushed to disk before it is named so. The replaced database stays
// until the operator removes it; restoring it undoes the restore.

export type Restored = Restorable & {
  databasePath: string;
  /** The backup restored, as an absolute path. */
  backupFile: string;
  bytes: number;
  /** Where the database that was replaced is kept; null when there was none. */
  replacedPath: string | null;
};

/** Replaces the SQLite database at `databasePath` with the backup `backupFile`; throws RestoreRefusal (or DatabaseInUseError) and changes nothing when it will not. */
export async function restoreSqlite(databasePath: string, backupFile: string, now = new Date()): Promise<Restored> {
  const source = path.resolve(backupFile);
  if (!existsSync(source) || !statSync(source).isFile()) throw new RestoreRefusal(`there is no file ${source} to restore`);
  const current = existsSync(databasePath) ? statSync(databasePath) : undefined;
  const sourceStat = statSync(source);
  if (current && current.dev === sourceStat.dev && current.ino === sourceStat.ino) throw new RestoreRefusal(`${source} is the database itself`);
  if (!current) {
    // A WAL or journal left without its database would be read into the restored one as if it were its own.
    const orphan = ["-wal", "-journal"].map((suffix) => databasePath + suffix).find((file) => existsSync(file));
    if (orphan) throw new RestoreRefusal(`${orphan} is there without ${path.basename(databasePath)}: move it away first, it would be read into the restored database`);
  }

  mkdirSync(path.dirname(databasePath), { recursive: true });
  const restoring = `${databasePath}.restoring`;
  // What a restore that died left is no one's.
  const removeRestoring = () => removeSqliteFiles(restoring);
  removeRestoring();
  try {
    copyFileSync(source, restoring, constants.COPYFILE_EXCL);
    // A backup copied by hand from a stopped store may have its last commits in a WAL beside it.
    if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${restoring}-wal`, constants.COPYFILE_EXCL);
    const restorable = await checkRestorable(restoring, source);
    if (current) keepOwnership(restoring, current);
    flushToDisk(restoring);

    const soleUse = current ? takeSoleUse(databasePath) : undefined;
    try {
      let replacedPath: string | null = null;
      if (soleUse) {
        const left = ["-wal", "-journal"].map((suffix) => databasePath + suffix).find((file) => existsSync(file));
        if (left) throw new Error(`${left} is still there after SQLite folded it in; nothing was changed`);
        replacedPath = `${databasePath}.replaced-${utcStamp(now)}`;
        if (existsSync(replacedPath)) throw new RestoreRefusal(`${replacedPath} exists; try again in a second`);
        renameSync(databasePath, replacedPath);
      }
      try {
        renameSync(restoring, databasePath);
      } catch (error) {
        if (replacedPath) renameSync(replacedPath, databasePath);
        throw error;
      }
      flushToDisk(path.dirname(databasePath));
      return { ...restorable, databasePath, backupFile: source, bytes: statSync(databasePath).size, replacedPath };
    } finally {
      soleUse?.release();
    }
  } finally {
    removeRestoring();
  }
}

/** The restored file gets the replaced one's permissions and, when root restores, its owner: the app's user must still be able to write it. */
function keepOwnership(file: string, replaced: { mode: number; uid: number; gid: number }): void {
  chmodSync(file, replaced.mode & 0o7777);
  if (process.getuid?.() === 0) chownSync(file, replaced.uid, replaced.gid);
}

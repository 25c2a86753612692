import { readdirSync, rmSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { isScheduledBackupName } from "@/lib/backup/backup-files";
import { SQLITE_SIDE_FILE_SUFFIXES } from "@/lib/db/sqlite-files";

// What is in a backup folder (issue 23): the backups to list, the scheduled
// ones beyond BACKUP_KEEP to remove, and the .partial files (and their
// journals) a backup that died half-way left behind. Only the scheduled backups' own names are ever
// removed by the count: a "-manual" backup, or any other file an operator
// put there, is theirs.

export type BackupFile = { name: string; bytes: number; takenAt: Date };

// plant-store-<UTC, ISO 8601 basic>[-manual].db (lib/backup/backup-files.ts).
const STAMPED = /^plant-store-(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z(?:-manual)?\.db$/;

/** A .partial that is no scheduled backup's is left alone this long: `db backup` may be writing it now. */
export const FOREIGN_PARTIAL_AGE_MS = 24 * 3_600_000;

/** The backups (.db files) in `dir`, newest first; none where the folder does not exist. */
export function listBackups(dir: string): BackupFile[] {
  const files = entries(dir)
    .filter((name) => name.endsWith(".db"))
    .flatMap((name) => {
      const stat = statOrNull(path.join(dir, name));
      return stat?.isFile() ? [{ name, bytes: stat.size, takenAt: takenAt(name) ?? stat.mtime }] : [];
    });
  return files.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime() || b.name.localeCompare(a.name));
}

/** Removes the scheduled backups beyond the newest `keep` (by name, which is by the time they were taken); answers their names. */
export function removeOldScheduledBackups(dir: string, keep: number): string[] {
  const scheduled = entries(dir)
    .filter(isScheduledBackupName)
    .sort()
    .reverse();
  const old = scheduled.slice(keep);
  for (const name of old) rmSync(path.join(dir, name), { force: true });
  return old;
}

/**
 * Removes the .partial files left by backups that died half-way, with the
 * files SQLite kept beside them (<name>.partial-journal and the like): those
 * of a scheduled backup's name at once (the caller runs one at a time, and is
 * not running one), any other once untouched for FOREIGN_PARTIAL_AGE_MS.
 */
export function removeStalePartials(dir: string, now = Date.now()): string[] {
  const stale = entries(dir).filter((name) => {
    const backup = partialOf(name);
    if (backup === undefined) return false;
    if (isScheduledBackupName(backup)) return true;
    const stat = statOrNull(path.join(dir, name));
    return stat !== null && now - stat.mtimeMs > FOREIGN_PARTIAL_AGE_MS;
  });
  for (const name of stale) rmSync(path.join(dir, name), { force: true });
  return stale;
}

/** The backup a half-made file was to become (x.db for x.db.partial and x.db.partial-journal), or undefined for any other file. */
function partialOf(name: string): string | undefined {
  for (const suffix of ["", ...SQLITE_SIDE_FILE_SUFFIXES]) {
    const ending = `.partial${suffix}`;
    if (name.endsWith(ending)) return name.slice(0, -ending.length);
  }
  return undefined;
}

/** When a backup was taken, from its name; undefined for a name the app did not give. */
function takenAt(name: string): Date | undefined {
  const match = STAMPED.exec(name);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  const at = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR")) return [];
    throw error;
  }
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

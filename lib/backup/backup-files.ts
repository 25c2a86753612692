import path from "node:path";

// How backups are named (issue 23): plant-store-<UTC time, ISO 8601 basic>.db,
// so that a folder's listing is in the order they were taken. The scheduled
// backups keep that name; a backup an operator takes with the CLI adds
// "-manual", and is never removed by BACKUP_KEEP: it is the operator's to keep.

export type BackupKind = "scheduled" | "manual";

const SCHEDULED = /^plant-store-\d{8}T\d{6}Z\.db$/;

/** A UTC time to the second in ISO 8601's basic format, 20261126T023000Z: sorts as it reads, and is safe in any file name. */
export function utcStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** The file name of a backup taken at `at`. */
export function backupFileName(at: Date, kind: BackupKind): string {
  return `plant-store-${utcStamp(at)}${kind === "manual" ? "-manual" : ""}.db`;
}

/** Whether a file name is one the scheduled backups gave (and BACKUP_KEEP may remove). */
export function isScheduledBackupName(name: string): boolean {
  return SCHEDULED.test(name);
}

/** Where backups go when no folder is configured: beside the data. */
export function defaultBackupDir(dataDir: string): string {
  return path.join(dataDir, "backups");
}

import { defaultBackupDir } from "@/lib/backup/backup-files";
import { type BackupFile, listBackups } from "@/lib/backup/backup-folder";
import { type BackupStatus, readBackupStatus } from "@/lib/backup/backup-status";
import { runningScheduledBackups } from "@/lib/backup/scheduled-backups";
import { env } from "@/lib/server/env";

// What owners are shown of the backups (issue 23): on the Backups page, the
// schedule, the last attempt and the last success (from the status file,
// lib/backup/backup-status.ts) and the backups in the folder; on every staff
// page, a failed last attempt, until one succeeds.

export type BackupOverview =
  /** PostgreSQL is backed up with pg_dump, not by the app. */
  | { engine: "postgresql" }
  | {
      engine: "sqlite";
      /** null: scheduled backups are off (BACKUP_DIR is unset). */
      schedule: { intervalMs: number; keep: number } | null;
      /** Where the backups are: BACKUP_DIR, or where `db backup` puts them without it. */
      dir: string;
      status: BackupStatus | null;
      files: BackupFile[];
      /** This process's schedule, where it runs one (the production server, not `next dev`). */
      running: { nextAt: Date | null; since: Date | null } | null;
    };

export function backupOverview(): BackupOverview {
  const config = env();
  if (config.database.provider === "postgresql") return { engine: "postgresql" };
  const dir = config.backupDir ?? defaultBackupDir(config.dataDir);
  const backups = runningScheduledBackups();
  return {
    engine: "sqlite",
    schedule: config.backupSchedule,
    dir,
    // A status left from when backups were on is still the truth about the last one taken.
    status: readBackupStatus(config.dataDir),
    files: listBackups(dir),
    running: backups ? { nextAt: backups.nextAt(), since: backups.runningSince() } : null,
  };
}

export type FailedBackup = { failedAt: string; reason: string; lastSuccessAt: string | null };

/** The last scheduled backup, if it failed while backups are on (turned off, an old failure is no longer news). */
export function failedScheduledBackup(): FailedBackup | null {
  const config = env();
  if (config.database.provider !== "sqlite" || config.backupSchedule === null) return null;
  const status = readBackupStatus(config.dataDir);
  if (!status || status.lastAttempt.ok) return null;
  return { failedAt: status.lastAttempt.finishedAt, reason: status.lastAttempt.error, lastSuccessAt: status.lastSuccess?.finishedAt ?? null };
}

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// What the scheduled backups last did (issue 23), in a file beside the data
// rather than in the database: the page and the metrics read it, any process
// on the machine may (an operator's cat, a monitoring script), and a restart
// reads when the last one began, so that the schedule goes on where it was.
// In DATA_DIR, not BACKUP_DIR: a backup folder that cannot be made or written
// is exactly the failure this file must be able to report.

const attemptFields = {
  /** ISO 8601, UTC. */
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  /** The backup's path (for a failed attempt, the path it was to have). */
  file: z.string(),
  durationMs: z.number().nonnegative(),
};

const succeededSchema = z.object({ ok: z.literal(true), ...attemptFields, bytes: z.number().int().nonnegative() });
const failedSchema = z.object({ ok: z.literal(false), ...attemptFields, error: z.string() });

export const backupStatusSchema = z.object({
  lastAttempt: z.discriminatedUnion("ok", [succeededSchema, failedSchema]),
  /** The newest attempt that succeeded, whatever came after it; null until one has. */
  lastSuccess: succeededSchema.nullable(),
});

export type BackupStatus = z.infer<typeof backupStatusSchema>;
export type BackupAttempt = BackupStatus["lastAttempt"];
export type SucceededBackup = z.infer<typeof succeededSchema>;

/** Where the status is kept. */
export function backupStatusPath(dataDir: string): string {
  return path.join(dataDir, "backup-status.json");
}

/**
 * The status, or null where there is none yet, or none that can be read (it
 * is rewritten whole at the next attempt): a page or a start-up is never
 * stopped by it, and without it the next backup is due at once.
 */
export function readBackupStatus(dataDir: string): BackupStatus | null {
  try {
    const parsed = backupStatusSchema.safeParse(JSON.parse(readFileSync(backupStatusPath(dataDir), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The status after `attempt`: it is the last attempt, and the last success too if it succeeded. */
export function withAttempt(previous: BackupStatus | null, attempt: BackupAttempt): BackupStatus {
  return { lastAttempt: attempt, lastSuccess: attempt.ok ? attempt : (previous?.lastSuccess ?? null) };
}

/**
 * Writes the status aside and renames it into place, flushed first, so a
 * reader (or a restart after a power cut) finds the previous status or the
 * new one whole, never half of one.
 */
export function writeBackupStatus(dataDir: string, status: BackupStatus): void {
  const file = backupStatusPath(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.tmp`;
  try {
    const descriptor = openSync(draft, "w", 0o644);
    try {
      writeSync(descriptor, `${JSON.stringify(status, null, 2)}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(draft, file);
  } finally {
    rmSync(draft, { force: true });
  }
}

import path from "node:path";
import { backupFileName } from "@/lib/backup/backup-files";
import { removeOldScheduledBackups, removeStalePartials } from "@/lib/backup/backup-folder";
import { type BackupAttempt, type BackupStatus, backupStatusPath, readBackupStatus, withAttempt, writeBackupStatus } from "@/lib/backup/backup-status";
import { snapshotSqlite } from "@/lib/db/sqlite-snapshot";
import { makeFolder } from "@/lib/db/write-failure";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { type BackupMetrics, backupMetrics } from "@/lib/server/metrics";
import { existingProcessGlobal, processGlobal, takeProcessGlobal } from "@/lib/server/process-global";

// Scheduled backups of the SQLite database (issue 23), from the server
// process, which holds the database: a checked copy (lib/db/sqlite-snapshot.ts,
// on a worker thread, so requests go on being served) into BACKUP_DIR every
// BACKUP_INTERVAL, the newest BACKUP_KEEP of them kept. With several workers
// (issue 25) the primary runs them, once for the machine, and the workers
// reach them through lib/backup/backup-schedule-link.ts.
//
// The next backup is due one interval after the last attempt began, as the
// status file records it (lib/backup/backup-status.ts), so that a restart
// neither skips one (a process restarted every 50 minutes still backs up
// hourly) nor piles them up (one restarted ten times in a minute backs up
// once); the first start, with no status, backs up at once. One backup at a
// time in a process: a timer that comes due during one (an owner's "Back up
// now", or one longer than the interval) waits for it, and the next is then
// due one interval after it began, or at once if that has passed.
//
// An attempt that fails is logged at error, recorded in the status (owners
// see it on every staff page until one succeeds) and in the metrics; the
// next is tried one interval later, like any other.

export type BackupSchedule = {
  /** The live SQLite database. */
  databasePath: string;
  backupDir: string;
  /** Where the status file is kept. */
  dataDir: string;
  intervalMs: number;
  keep: number;
};

export type ScheduledBackups = {
  /** Takes a backup now (a scheduled one, counted in BACKUP_KEEP), or joins the one under way; answers how it went. */
  backUpNow(): Promise<BackupAttempt>;
  /** When the next backup is due; null once stopped. */
  nextAt(): Date | null;
  /** When the backup under way began; null when none is. */
  runningSince(): Date | null;
  /** Takes no more backups. One under way is not waited for: it ends with the process, and its .partial file is removed by the next attempt. */
  stop(): void;
};

const SCHEDULER = "backup.scheduler";

// setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a longer one fires at once.
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * When the next backup is due: one interval after the last attempt began,
 * or now if that has passed, or there was none. A start recorded in the
 * future (the clock stepped back) waits one interval at most.
 */
export function nextBackupAt(status: BackupStatus | null, intervalMs: number, now: number): number {
  if (!status) return now;
  const due = Date.parse(status.lastAttempt.startedAt) + intervalMs;
  return Math.min(Math.max(due, now), now + intervalMs);
}

/** Starts this process's scheduled backups (once: a second call answers the first's). */
export function startScheduledBackups(schedule: BackupSchedule, onChange?: () => void): ScheduledBackups {
  return processGlobal(SCHEDULER, () => scheduleBackups(schedule, onChange));
}

/**
 * This process's scheduled backups, if it runs them (an owner's "Back up now" joins them); in a worker of
 * several, the primary's, reached through lib/backup/backup-schedule-link.ts.
 */
export function runningScheduledBackups(): ScheduledBackups | undefined {
  return existingProcessGlobal<ScheduledBackups>(SCHEDULER);
}

/** Stops this process's scheduled backups, if it runs them (at shutdown); in a worker of several, stops following the primary's. */
export function stopScheduledBackups(): void {
  takeProcessGlobal<ScheduledBackups>(SCHEDULER)?.stop();
}

/** In a worker of several: the primary's schedule stands as this process's while the primary runs it (undefined: while it does not). */
export function standInForScheduledBackups(standIn: ScheduledBackups | undefined): void {
  if (existingProcessGlobal<ScheduledBackups>(SCHEDULER) === standIn) return;
  takeProcessGlobal<ScheduledBackups>(SCHEDULER);
  if (standIn) processGlobal(SCHEDULER, () => standIn);
}

/**
 * The schedule the configuration asks for, or null: backups are scheduled on SQLite with BACKUP_DIR set
 * (env.ts refuses BACKUP_DIR with PostgreSQL, which pg_dump backs up).
 */
export function configuredBackupSchedule(): BackupSchedule | null {
  const { database, backupDir, backupSchedule, dataDir } = env();
  if (database.provider !== "sqlite" || backupDir === null || backupSchedule === null) return null;
  return { databasePath: database.path, backupDir, dataDir, ...backupSchedule };
}

/**
 * A schedule of backups of its own (the tests run several in one process); the server uses startScheduledBackups.
 * onChange is called when nextAt() or runningSince() has changed: as a backup begins, as it ends, and at stop().
 */
export function scheduleBackups(schedule: BackupSchedule, onChange: () => void = () => {}): ScheduledBackups {
  const { dataDir, intervalMs } = schedule;
  const metrics = backupMetrics();
  let status = readBackupStatus(dataDir);
  showInMetrics(metrics, status);
  let running: { since: Date; attempt: Promise<BackupAttempt> } | undefined;
  let dueAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;

  function plan(at: number): void {
    clearTimeout(timer);
    dueAt = at;
    // Never keeps the process alive by itself.
    timer = setTimeout(wake, Math.min(Math.max(at - Date.now(), 0), LONGEST_TIMER_MS)).unref();
  }

  function wake(): void {
    if (dueAt === null) return;
    // Woken early: an interval longer than one timer can wait.
    if (dueAt > Date.now()) return plan(dueAt);
    void backUpNow();
  }

  function backUpNow(): Promise<BackupAttempt> {
    if (running) return running.attempt;
    const since = new Date();
    clearTimeout(timer);
    const attempt = takeBackup(schedule, since).then((done) => {
      status = withAttempt(status, done);
      record(schedule, metrics, status);
      running = undefined;
      if (dueAt !== null) plan(nextBackupAt(status, intervalMs, Date.now()));
      onChange();
      return done;
    });
    running = { since, attempt };
    onChange();
    return attempt;
  }

  plan(nextBackupAt(status, intervalMs, Date.now()));
  log.info("scheduled backups on", { dir: schedule.backupDir, intervalMs, keep: schedule.keep, nextAt: new Date(dueAt!).toISOString() });
  return {
    backUpNow,
    // While one runs, the next is due an interval after it began (or at once after it, if that has passed).
    nextAt: () => (dueAt === null ? null : new Date(running ? Math.max(running.since.getTime() + intervalMs, Date.now()) : dueAt)),
    runningSince: () => running?.since ?? null,
    stop() {
      dueAt = null;
      clearTimeout(timer);
      onChange();
    },
  };
}

/** One backup: the folder made if missing, stale partial files removed, the copy, then the scheduled backups beyond `keep` removed. Never throws. */
async function takeBackup({ databasePath, backupDir, keep }: BackupSchedule, startedAt: Date): Promise<BackupAttempt> {
  const file = path.join(backupDir, backupFileName(startedAt, "scheduled"));
  const times = () => ({ startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), durationMs: Date.now() - startedAt.getTime() });
  try {
    makeFolder(backupDir);
    removeStalePartials(backupDir);
    // A backup begun in the same second as the previous one has its name: the newer replaces it, whole (a rename).
    const { bytes } = await snapshotSqlite(databasePath, file);
    removeOld(backupDir, keep);
    return { ok: true, ...times(), file, bytes };
  } catch (error) {
    // The message only: paths and SQLite's own words, nothing secret. The stack goes to the log alone.
    return { ok: false, ...times(), file, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The backup just taken stands even if an old one cannot be removed; the next attempt tries again. */
function removeOld(backupDir: string, keep: number): void {
  try {
    removeOldScheduledBackups(backupDir, keep);
  } catch (error) {
    log.warn("removing old scheduled backups failed; the next backup tries again", { dir: backupDir, ...describeError(error) });
  }
}

function record({ dataDir, intervalMs }: BackupSchedule, metrics: BackupMetrics, status: BackupStatus): void {
  const attempt = status.lastAttempt;
  metrics.runs.inc({ outcome: attempt.ok ? "succeeded" : "failed" });
  showInMetrics(metrics, status);
  const nextAt = new Date(nextBackupAt(status, intervalMs, Date.now())).toISOString();
  if (attempt.ok) {
    log.info("backup taken", { file: attempt.file, bytes: attempt.bytes, durationMs: attempt.durationMs, nextAt });
  } else {
    log.error("backup failed", { file: attempt.file, reason: attempt.error, durationMs: attempt.durationMs, lastSuccessAt: status.lastSuccess?.finishedAt ?? null, nextAt });
  }
  try {
    writeBackupStatus(dataDir, status);
  } catch (error) {
    // The page then shows the attempt before this one; the log and the metrics have this one.
    log.error("writing the backup status failed", { file: backupStatusPath(dataDir), ...describeError(error) });
  }
}

function showInMetrics(metrics: BackupMetrics, status: BackupStatus | null): void {
  // Present from the start, at 0, so that a rate() over them needs no first attempt.
  for (const outcome of ["succeeded", "failed"]) metrics.runs.inc({ outcome }, 0);
  if (!status) return;
  metrics.lastRunSuccess.set(status.lastAttempt.ok ? 1 : 0);
  const success = status.lastSuccess;
  if (!success) return;
  metrics.lastSuccess.set(Date.parse(success.finishedAt) / 1000);
  metrics.lastSize.set(success.bytes);
  metrics.lastDuration.set(success.durationMs / 1000);
}

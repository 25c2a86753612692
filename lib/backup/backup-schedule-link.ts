import cluster, { type Worker } from "node:cluster";
import type { BackupAttempt } from "@/lib/backup/backup-status";
import { type BackupSchedule, runningScheduledBackups, type ScheduledBackups, standInForScheduledBackups, startScheduledBackups } from "@/lib/backup/scheduled-backups";

// The scheduled backups when `npm start` runs several workers (issues 23 and
// 25). The primary runs them (lib/server/cluster-primary.ts): it is the one
// process that lives as long as the server does and is never replaced, and
// a backup needs nothing a worker has (no Next.js, no Prisma: VACUUM INTO on
// a thread of its own, the status file, the metrics). The owners' Backups
// page and its "Back up now" run in whichever worker a request reaches; in a
// worker, this link stands in for the schedule (runningScheduledBackups()
// answers it), with the schedule's own interface, so the page and the action
// are the same for one process and for several.
//
// Over the cluster's IPC channel, beside prom-client's and the rate
// limiter's messages (each kind has a type of its own):
// - a worker, as it starts, asks for the schedule's state; the primary
//   answers it, and sends every worker the state again whenever it changes
//   (a backup begins or ends, the schedule starts or stops). A worker thus
//   answers nextAt() and runningSince() from what it was last told, with no
//   round trip while a page is drawn.
// - "Back up now" in a worker sends a request with an id of its own; the
//   primary answers at once that it has begun (or joined the backup under
//   way), then, when the backup ends, with how it went. Only the first answer
//   has a deadline: a backup of a large store may take minutes, and a primary
//   that has taken the request answers in the end (if it dies, so do its
//   workers: cluster ends a worker whose channel closes).

const STATE = "plant-store:backups:state";
const FOLLOW = "plant-store:backups:follow";
const BACK_UP_NOW = "plant-store:backups:back-up-now";
const BEGUN = "plant-store:backups:begun";
const OUTCOME = "plant-store:backups:outcome";

// The primary answers at once; it is never busy (it serves no request).
const BEGIN_TIMEOUT_MS = 5_000;

/** null: the primary runs no schedule (not yet, while its workers start, or no more, as it stops). */
type ScheduleState = { nextAt: string; runningSince: string | null } | null;

type LinkMessage =
  | { type: typeof STATE; schedule: ScheduleState }
  | { type: typeof FOLLOW }
  | { type: typeof BACK_UP_NOW; id: number }
  | { type: typeof BEGUN; id: number }
  | { type: typeof OUTCOME; id: number; attempt: BackupAttempt }
  | { type: typeof OUTCOME; id: number; refused: string };

function isLinkMessage(message: unknown): message is LinkMessage {
  if (typeof message !== "object" || message === null) return false;
  const { type } = message as { type?: unknown };
  return type === STATE || type === FOLLOW || type === BACK_UP_NOW || type === BEGUN || type === OUTCOME;
}

/**
 * In the primary, before it forks a worker: answers the workers' questions
 * and requests about the schedule, which start() starts in this process
 * (once every worker serves) and stopScheduledBackups() stops. Every worker
 * is told of each change, from the start on.
 */
export function shareScheduledBackupsWithWorkers(schedule: BackupSchedule): { start(): void } {
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isLinkMessage(message)) return;
    if (message.type === FOLLOW) send(worker, state());
    if (message.type === BACK_UP_NOW) backUpFor(worker, message.id);
  });
  const tellEveryWorker = () => {
    const message = state();
    for (const worker of Object.values(cluster.workers ?? {})) if (worker) send(worker, message);
  };
  return {
    start() {
      startScheduledBackups(schedule, tellEveryWorker);
      // Its first nextAt: the schedule says nothing until a backup begins, which may be an interval away.
      tellEveryWorker();
    },
  };
}

function state(): LinkMessage {
  const backups = runningScheduledBackups();
  const nextAt = backups?.nextAt();
  if (!backups || !nextAt) return { type: STATE, schedule: null };
  return { type: STATE, schedule: { nextAt: nextAt.toISOString(), runningSince: backups.runningSince()?.toISOString() ?? null } };
}

function backUpFor(worker: Worker, id: number): void {
  const backups = runningScheduledBackups();
  if (!backups) {
    send(worker, { type: OUTCOME, id, refused: "scheduled backups are not running just now (the server is starting or stopping); try again in a moment" });
    return;
  }
  const attempt = backups.backUpNow();
  send(worker, { type: BEGUN, id });
  // Never rejects: a failed backup is an attempt too.
  void attempt.then((done) => send(worker, { type: OUTCOME, id, attempt: done }));
}

function send(worker: Worker, message: LinkMessage): void {
  // A worker that has just died may still be listed; with a callback, a failed send is not an 'error' event.
  if (worker.isConnected()) worker.send(message, undefined, () => {});
}

/**
 * In a worker of several where the configuration has scheduled backups:
 * follows the primary's schedule, which stands as this process's
 * (runningScheduledBackups()) whenever the primary runs it. Called before
 * the worker serves, so that its first page knows the schedule.
 */
export function followPrimaryScheduledBackups(): void {
  let schedule: ScheduleState = null;
  let stopped = false;
  let nextId = 0;
  const waiting = new Map<number, { begun(): void; settle(outcome: BackupAttempt | string): void }>();

  function backUpNow(): Promise<BackupAttempt> {
    const id = nextId++;
    const asked = new Date();
    return new Promise((resolve) => {
      // A reason: no backup was begun for this request.
      const settle = (outcome: BackupAttempt | string) => {
        clearTimeout(deadline);
        waiting.delete(id);
        resolve(typeof outcome === "string" ? notTaken(asked, outcome) : outcome);
      };
      const deadline = setTimeout(() => settle(`the primary process did not take the request within ${BEGIN_TIMEOUT_MS / 1000} s`), BEGIN_TIMEOUT_MS);
      waiting.set(id, { begun: () => clearTimeout(deadline), settle });
      const message: LinkMessage = { type: BACK_UP_NOW, id };
      process.send?.(message, undefined, undefined, (error) => error && settle(`the request could not be sent to the primary process: ${error.message}`));
    });
  }

  const standIn: ScheduledBackups = {
    backUpNow,
    nextAt: () => (schedule ? new Date(schedule.nextAt) : null),
    runningSince: () => (schedule?.runningSince ? new Date(schedule.runningSince) : null),
    // At the worker's shutdown: it no longer follows (the primary's schedule is the primary's to stop). A
    // backup asked for is still answered, to the request that waits for it while the worker drains.
    stop() {
      stopped = true;
      schedule = null;
    },
  };

  process.on("message", (message: unknown) => {
    if (!isLinkMessage(message)) return;
    if (message.type === STATE && !stopped) {
      schedule = message.schedule;
      standInForScheduledBackups(schedule ? standIn : undefined);
    }
    if (message.type === BEGUN) waiting.get(message.id)?.begun();
    if (message.type === OUTCOME) waiting.get(message.id)?.settle("attempt" in message ? message.attempt : message.refused);
  });
  const follow: LinkMessage = { type: FOLLOW };
  process.send?.(follow);
}

/** A backup that was never begun, as the failed attempt the page shows: no file was made, so none is named. */
function notTaken(asked: Date, reason: string): BackupAttempt {
  const finishedAt = new Date();
  return { ok: false, startedAt: asked.toISOString(), finishedAt: finishedAt.toISOString(), durationMs: finishedAt.getTime() - asked.getTime(), file: "", error: reason };
}

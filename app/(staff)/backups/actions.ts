"use server";

import path from "node:path";
import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { describeSize } from "@/lib/backup/describe-size";
import { runningScheduledBackups } from "@/lib/backup/scheduled-backups";

// The Backups page's action (issue 23). A server action is a public
// endpoint: it checks, itself, that an owner is signed in (staff get a 404,
// as from the page). It joins this process's schedule: the backup is one of
// the scheduled ones (counted in BACKUP_KEEP, and the next is due an interval
// after it), and never runs beside another.

/** What "Back up now" did, in a sentence, or why it failed. */
export type BackUpNowResult = { done: string } | { error: string } | null;

export async function backUpNow(): Promise<BackUpNowResult> {
  await requireOwner("/backups");
  const backups = runningScheduledBackups();
  if (!backups) return { error: "Scheduled backups are not running in this process: set BACKUP_DIR and restart the app (npm start)." };
  const attempt = await backups.backUpNow();
  // The failure notice is on every staff page: the layout's, not just this page's.
  revalidatePath("/", "layout");
  if (!attempt.ok) return { error: `The backup failed: ${attempt.error}` };
  return { done: `Backed up to ${path.basename(attempt.file)} (${describeSize(attempt.bytes)}, checked, in ${(attempt.durationMs / 1000).toFixed(1)} s).` };
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { type BackupStatus, backupStatusSchema } from "@/lib/backup/backup-status";

/** What an app's scheduled backups last recorded in DATA_DIR/backup-status.json, or null before the first (or while it is being replaced). */
export function backupStatusIn(dataDir: string): BackupStatus | null {
  try {
    return backupStatusSchema.parse(JSON.parse(readFileSync(path.join(dataDir, "backup-status.json"), "utf8")));
  } catch {
    return null;
  }
}

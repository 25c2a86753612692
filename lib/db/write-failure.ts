import { accessSync, constants, existsSync, mkdirSync, statfsSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { describeSize } from "@/lib/backup/describe-size";

// Why a file could not be written, in words that name the file, its folder
// and the cause. SQLite's own words name neither the file nor the folder
// ("database or disk is full"), or give no cause ("unable to open database:
// <file>"), and Node's recursive mkdir answers ENOENT on a read-only file
// system: an operator reading them is left to guess which disk to clear or
// which folder to fix. The cause is asked of the system itself (the folder's
// free space, whether this user may write into it), after the failure.

/** The failure's code as SQLite or Node gives it (SQLITE_FULL, ENOSPC, EACCES...), and its own words. */
export type FailureCause = { code?: string; message: string };

const NO_ROOM = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);
const NOT_WRITABLE = new Set(["SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM", "EACCES", "EPERM", "EROFS"]);

/** The code of a thrown error (SQLite's or Node's), if it has one. */
export function failureCause(error: unknown): FailureCause {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = "code" in error && typeof error.code === "string" ? error.code : undefined;
  return { code, message: error.message };
}

/**
 * Why `file` could not be written, naming it and its folder: the folder is
 * full (with its file system's free space), or cannot be written (and why).
 * `upToBytes`, the most the file would have taken, when known, tells a full
 * folder from a full temporary one (SQLite's sorts spill to SQLITE_TMPDIR,
 * else /var/tmp or /tmp). Undefined when the cause is no failure to write there.
 */
export function describeWriteFailure(file: string, cause: FailureCause, upToBytes?: number): string | undefined {
  const dir = path.dirname(file);
  if (cause.code !== undefined && NO_ROOM.has(cause.code)) {
    const free = freeBytes(dir);
    if (free === undefined) return `cannot write ${file}: there is no room left in ${dir} (${cause.message})`;
    if (upToBytes !== undefined && free >= upToBytes) {
      return (
        `cannot write ${file}: SQLite ran out of room (${cause.message}), yet ${dir} has ${describeSize(free)} free, enough for the file's ${describeSize(upToBytes)} at most: ` +
        "the full file system is likely that of SQLite's temporary files (SQLITE_TMPDIR, else /var/tmp or /tmp)"
      );
    }
    const room = `${describeSize(free)} free on its file system${upToBytes === undefined ? "" : `, the file needs up to ${describeSize(upToBytes)}`}`;
    return `cannot write ${file}: ${dir} is full (${room})`;
  }
  if (cause.code !== undefined && NOT_WRITABLE.has(cause.code)) {
    const why = whyNotWritable(dir);
    if (why !== undefined) return `cannot write ${file}: ${why}`;
  }
  return undefined;
}

/** Makes `dir` and its parents where missing; a failure says which folder could not be written, and why. */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const why = whyNotWritable(nearestExisting(dir));
    throw why === undefined ? error : new Error(`cannot make the folder ${dir}: ${why}`);
  }
}

/** Why this process may not write into `dir`, or undefined if it may. */
function whyNotWritable(dir: string): string | undefined {
  if (!existsSync(dir)) return `there is no folder ${dir}`;
  if (!statSync(dir).isDirectory()) return `${dir} is not a folder (it is a file)`;
  try {
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    const { code, message } = failureCause(error);
    if (code === "EROFS") return `${dir} cannot be written: it is on a read-only file system`;
    if (code === "EACCES" || code === "EPERM") return `${dir} cannot be written: permission denied to ${currentUser()} (see its owner and mode: ls -ld ${dir})`;
    return `${dir} cannot be written: ${message}`;
  }
}

function nearestExisting(dir: string): string {
  let place = path.resolve(dir);
  while (!existsSync(place) && path.dirname(place) !== place) place = path.dirname(place);
  return place;
}

function freeBytes(dir: string): number | undefined {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

function currentUser(): string {
  try {
    const { username, uid } = userInfo();
    return `user ${username} (uid ${uid})`;
  } catch {
    return `uid ${process.getuid?.() ?? "unknown"}`;
  }
}

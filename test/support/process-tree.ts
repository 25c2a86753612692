import { readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";

// The processes an app under test runs, read from Linux's /proc: the workers
// its primary forked, and whatever of it is left after it exited.

/** The ids of the processes `pid` started that still run (or are not yet reaped). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    if (text) children.push(...text.split(/\s+/).map(Number));
  }
  return children.sort((a, b) => a - b);
}

/** The ids of the processes whose environment has `name`=`value` (an app's DATA_DIR, which no other process has). */
export function pidsWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, "utf8");
    } catch {
      continue; // gone meanwhile, or another user's
    }
    if (environ.split("\0").includes(wanted)) found.push(Number(entry));
  }
  return found;
}

/**
 * Whether the process catches SIGHUP (the SigCgt mask in /proc/<pid>/status). Node never does by
 * itself: the server's first line has run, from which it catches every stop signal (lib/server/stop-signals.ts).
 * A signal before that is Node's default, a kill, however the server is written.
 */
export function catchesStopSignals(pid: number): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return false; // gone meanwhile
  }
  const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  return caught !== undefined && (BigInt(`0x${caught}`) & (1n << BigInt(constants.signals.SIGHUP - 1))) !== 0n;
}

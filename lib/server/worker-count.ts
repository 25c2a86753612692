import { readFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";

// How many server processes `npm start` runs (issue 25): WEB_CONCURRENCY, a
// number, or auto for one per core this process may use, as many as fit in
// the memory it may use.

/**
 * What one server process may grow to: the heap limit the start script gives
 * Node (--max-old-space-size=256, package.json) and as much again for what
 * lives outside the heap (Next's and React's code, SQLite's page cache, the
 * buffers of requests in flight). Measured resident memory per worker is in
 * docs/operations.md; this is the ceiling, not the usual.
 */
export const WORKER_MEMORY_BYTES = 512 * 1024 * 1024;

export type WorkerSetting = number | "auto";

/** What the machine lets this process use: cores and bytes of memory. */
export type MachineLimits = { cores: number; memoryBytes: number };

/** The number of workers for `setting` on a machine with `limits`: auto is the cores, no more than fit in memory, at least one. */
export function workerCount(setting: WorkerSetting, limits: MachineLimits = machineLimits()): number {
  if (setting !== "auto") return setting;
  return Math.max(1, Math.min(limits.cores, Math.floor(limits.memoryBytes / WORKER_MEMORY_BYTES)));
}

/**
 * The cores and memory this process may use: the CPUs it may be scheduled on
 * (its affinity, taskset), fewer if a cgroup (a container's --cpus, systemd's
 * CPUQuota) gives it less time; the machine's memory, less if a cgroup caps it.
 */
export function machineLimits(): MachineLimits {
  const quota = cgroupCpuQuota();
  const constrained = process.constrainedMemory();
  // 0 (Node 20) or a huge number (later Nodes) where no cgroup caps memory.
  const memoryBytes = constrained > 0 && constrained < totalmem() ? constrained : totalmem();
  return { cores: Math.max(1, Math.min(availableParallelism(), quota ?? Infinity)), memoryBytes };
}

/** cgroup v2's cpu.max ("<quota> <period>", or "max <period>") as whole cores, rounded up; undefined where there is none. */
function cgroupCpuQuota(): number | undefined {
  let text: string;
  try {
    text = readFileSync("/sys/fs/cgroup/cpu.max", "utf8");
  } catch {
    return undefined;
  }
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === "max" || period === undefined) return undefined;
  const cores = Number(quota) / Number(period);
  return Number.isFinite(cores) && cores > 0 ? Math.ceil(cores) : undefined;
}

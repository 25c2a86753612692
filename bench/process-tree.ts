import { readdirSync, readFileSync } from "node:fs";

// A server and what it started (Linux, from /proc): with WEB_CONCURRENCY the
// process the bench spawned is the cluster's primary, and the requests are
// answered by its workers, so the cost of a request is the whole tree's.

/** The fields of /proc/<pid>/stat after the command's closing parenthesis: the state is [0], the parent [1]. */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(") ") + 2).split(" ");
  } catch {
    // Gone meanwhile.
    return undefined;
  }
}

/** `pid` and every process below it, parents first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    if (!Number.isInteger(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) tree.push(...(children.get(tree[index]!) ?? []));
  return tree;
}

/**
 * CPU time the process tree of `pid` has used, in ms: user + system time of
 * each process in it, and of the children each has reaped (a worker that died
 * and was replaced during a round still counts, through its primary).
 */
export function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  return processTree(pid).reduce((sum, each) => sum + (processCpuMs(each) ?? 0), 0);
}

/** CPU time one process and the children it reaped have used, in ms, or undefined once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  const fields = statFields(pid);
  // utime, stime, cutime, cstime: the 14th to 17th fields of stat, [11] to [14] here, in clock ticks (100 a second).
  return fields && (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
}

/** A process's resident memory, in bytes (VmRSS), or undefined once it is gone. */
export function residentBytes(pid: number): number | undefined {
  return procKilobytes(`/proc/${pid}/status`, "VmRSS");
}

/**
 * A process's proportional set size, in bytes (Pss: each shared page divided
 * among the processes that map it), or undefined once it is gone. The sum of
 * the tree's is what it takes from the machine; the sum of their VmRSS counts
 * node's own code, which every worker maps, once per worker.
 */
export function proportionalBytes(pid: number): number | undefined {
  return procKilobytes(`/proc/${pid}/smaps_rollup`, "Pss");
}

/** A "<field>: <n> kB" line of a /proc file, in bytes, or undefined when the process (or the line) is gone. */
function procKilobytes(file: string, field: string): number | undefined {
  try {
    const kilobytes = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(file, "utf8"))?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * What a process of the tree of `root` is: "primary", "worker <place>"
 * (PLANT_STORE_WORKER, lib/server/cluster-role.ts), or "server" for the one
 * process; `tree`, the tree's processes, when the caller has them.
 */
export function processRole(pid: number, root: number, tree: number[] = processTree(root)): string {
  if (pid !== root) {
    try {
      const place = /(?:^|\0)PLANT_STORE_WORKER=(\d+)/.exec(readFileSync(`/proc/${pid}/environ`, "utf8"))?.[1];
      return place === undefined ? `process ${pid}` : `worker ${place}`;
    } catch {
      return `process ${pid}`;
    }
  }
  return tree.length > 1 ? "primary" : "server";
}

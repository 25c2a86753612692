import autocannon from "autocannon";
import { treeCpuMs } from "@/bench/process-tree";

// One round of load on one server, as npm run bench sends it (bench/run.ts):
// 50 connections of authenticated POST /plants (unique ids), GET
// /plants?limit=20 or PATCH /plants/{id} (a new name for each stored plant
// in turn), and what the round cost the server's CPU.

export const CONNECTIONS = 50;
/** The plants a bench app holds before it is measured: the list reads them, PATCH renames them. */
export const STORED_FOR_GET = 500;

export type Operation = "POST" | "GET" | "PATCH";
export type Result = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number; cpuMsPerRequest: number };
/** A server to load: its address, the headers every request carries, and the process the bench started. */
export type LoadTarget = { url: string; headers: Record<string, string>; pid: () => number | undefined };

let nextId = 1_000_000n;
let nextPatch = 0;

export async function load(target: LoadTarget, operation: Operation, seconds: number): Promise<Result> {
  const request =
    operation === "POST"
      ? {
          method: "POST" as const,
          path: "/plants",
          headers: { "content-type": "application/json", ...target.headers },
          setupRequest: (each: autocannon.Request) => ({ ...each, body: `{"id":${nextId++},"name":"Bench fern","tag":"bench"}` }),
        }
      : operation === "PATCH"
        ? {
            method: "PATCH" as const,
            path: "/plants/1",
            headers: { "content-type": "application/merge-patch+json", ...target.headers },
            // Every request a real change: a new name, round the stored plants.
            setupRequest: (each: autocannon.Request) => {
              const patch = nextPatch++;
              return { ...each, path: `/plants/${(patch % STORED_FOR_GET) + 1}`, body: `{"name":"Patched fern ${patch}"}` };
            },
          }
        : { method: "GET" as const, path: "/plants?limit=20", headers: target.headers };
  // The whole process tree: with workers, the primary only hands out connections and the workers answer.
  const cpuBefore = treeCpuMs(target.pid());
  const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: seconds, requests: [request] });
  return {
    cpuMsPerRequest: (treeCpuMs(target.pid()) - cpuBefore) / result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function show(name: string, result: Result): string {
  return `${name.padEnd(30)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50).padStart(4)} ms   p99 ${String(result.p99).padStart(4)} ms   CPU ${result.cpuMsPerRequest.toFixed(3)} ms/req   (${result.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors)`;
}

/** The middle value; of an even number, the mean of the two in the middle. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of `values` and, in brackets, the lowest and highest: how far one run can be trusted on this machine. */
export function spread(values: number[], digits = 2): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)})`;
}

import { ApiError } from "@/lib/http/api-error";
import { processGlobal } from "@/lib/server/process-global";

// How many streams one caller (a token, a staff member) and one client
// address may hold open in a process at once (issue 32): each holds a
// connection, a little memory and a share of every change's writes, so one
// client cannot take them all. Counted per process: with W workers behind one
// port, a client may hold up to W times as many in all (docs/operations.md).

/** Seconds a refused client is told to wait: a stream of its own ends only when it closes one. */
const RETRY_AFTER_SECONDS = 10;

export type StreamLimits = { perCaller: number; perAddress: number };

type Counts = Map<string, number>;

function counts(): Counts {
  return processGlobal("live.streams", () => new Map());
}

/** Takes a place for a stream of `caller` from `address`, or throws 429; answers the function that gives it back. */
export function takeStreamPlace(caller: string, address: string, limits: StreamLimits): () => void {
  const open = counts();
  const keys = [
    { key: `caller:${caller}`, limit: limits.perCaller, who: "this token or staff member" },
    { key: `address:${address}`, limit: limits.perAddress, who: "this client address" },
  ];
  for (const { key, limit, who } of keys) {
    if ((open.get(key) ?? 0) >= limit) {
      throw new ApiError("TooManyRequests", `${who} already holds ${limit} open event streams, the most allowed; close one first`, {
        headers: { "retry-after": String(RETRY_AFTER_SECONDS), "ratelimit-policy": `"streams";q=${limit}`, ratelimit: `"streams";r=0` },
      });
    }
  }
  for (const { key } of keys) open.set(key, (open.get(key) ?? 0) + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    for (const { key } of keys) {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    }
  };
}

/** Open streams in this process (for the metrics). */
export function openStreamCount(): number {
  let total = 0;
  for (const [key, count] of counts()) if (key.startsWith("caller:")) total += count;
  return total;
}

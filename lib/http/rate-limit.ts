import pg from "pg";
import { RateLimiterCluster, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts, type RateLimiterAbstract } from "rate-limiter-flexible";
import { ApiError } from "@/lib/http/api-error";
import { isClusterWorker } from "@/lib/server/cluster-role";
import { env, type RateLimit } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";
import { existingProcessGlobal, processGlobal } from "@/lib/server/process-global";

// Rate limits (rate-limiter-flexible), each set by its RATE_LIMIT_* variable.
// With SQLite, one machine serves the database, and the counters live in its
// memory: the process's own, or with several workers (issue 25) the primary's,
// which every worker asks over the cluster's IPC channel (the primary spent
// about 0.09 ms of CPU a request on them under the bench's load, measured
// with BENCH_SCALING=profile; a counter in the SQLite file would cost a
// write, the one write lock and an fsync on every request). With PostgreSQL, every instance and
// worker shares them in the rate_limits table. Either way the process's own
// memory is the insurance while the primary or the database does not answer:
// a request is counted there, not failed.
// Answers follow the IETF httpapi RateLimit headers draft.

export type LimitName = keyof ReturnType<typeof env>["rateLimits"];

// The HTTP names of the limits, as the RateLimit headers quote them.
const POLICY_NAMES: Record<LimitName, string> = {
  api: "api",
  anonymous: "anonymous",
  signInAddress: "sign-in-address",
  signInAccount: "sign-in-account",
  resetRequestAddress: "reset-request-address",
  resetRequestAccount: "reset-request-account",
  linkAddress: "link-address",
  passkeyChallengeAddress: "passkey-challenge-address",
};

function limiter(name: LimitName): { limit: RateLimit; store: RateLimiterAbstract } | null {
  return processGlobal(`rate-limit.${name}`, () => {
    const limit = env().rateLimits[name];
    if (!limit) return null;
    const options = { keyPrefix: name, points: limit.points, duration: limit.durationSeconds };
    const database = env().database;
    if (database.provider === "sqlite") return { limit, store: isClusterWorker() ? insuredCluster(options) : new RateLimiterMemory(options) };
    const store = new RateLimiterPostgres({
      ...options,
      storeClient: counterPool(database.url),
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
    return { limit, store };
  });
}

/** How long a worker waits for the primary's count before it counts in its own memory. */
const PRIMARY_ANSWER_MS = 5_000;

/**
 * The primary's counters, with the worker's own memory as insurance: a primary
 * that a loaded machine held up past the time limit made RateLimiterCluster
 * reject with a plain Error, which answered the request 500 (seen in a
 * busy-core test run). The library insures its database stores by an option;
 * the cluster's, through this wrapper.
 */
function insuredCluster(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  return new RLWrapperTimeouts({
    limiter: new RateLimiterCluster({ ...options, timeoutMs: PRIMARY_ANSWER_MS }),
    timeoutMs: PRIMARY_ANSWER_MS,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/** A small pool of its own: a counter need not wait for a durable commit, unlike the app's writes. */
function counterPool(url: string): pg.Pool {
  return processGlobal("rate-limit.pool", () => {
    const pool = new pg.Pool({ connectionString: url, max: 4, options: "-c synchronous_commit=off", application_name: "plant-store rate limits" });
    // An idle connection the server drops (a restart, a failover) is replaced on next use;
    // unheard, the pool's "error" event would end the process.
    pool.on("error", (error) => log.warn("a rate-limit database connection was lost", describeError(error)));
    return pool;
  });
}

/** The draft's headers for a limit's state: its policy, and what is left until when. */
function headers(name: LimitName, limit: RateLimit, state: RateLimiterRes): Record<string, string> {
  const policy = `"${POLICY_NAMES[name]}"`;
  return {
    "ratelimit-policy": `${policy};q=${limit.points};w=${limit.durationSeconds}`,
    ratelimit: `${policy};r=${state.remainingPoints};t=${Math.ceil(state.msBeforeNext / 1000)}`,
  };
}

function tooManyRequests(name: LimitName, limit: RateLimit, state: RateLimiterRes, message: string): ApiError {
  metrics().rateLimited.inc({ limit: POLICY_NAMES[name] });
  const retryAfter = String(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
  return new ApiError("TooManyRequests", `${message}; retry after ${retryAfter} s`, { headers: { ...headers(name, limit, state), "retry-after": retryAfter } });
}

/** Spends one request of `key`'s allowance; throws the 429 when none is left. Answers the headers to send. */
export async function spend(name: LimitName, key: string, message = "too many requests"): Promise<Record<string, string>> {
  const configured = limiter(name);
  if (!configured) return {};
  try {
    return headers(name, configured.limit, await configured.store.consume(key));
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) throw tooManyRequests(name, configured.limit, refusal, message);
    throw refusal;
  }
}

/**
 * Spends one request of `key`'s allowance, in one step (of two racing requests
 * with one left, one is refused): undefined when it may go on, else the seconds
 * to wait, for a page or server action to say in words rather than throw a 429.
 */
export async function spendOrWait(name: LimitName, key: string): Promise<number | undefined> {
  const configured = limiter(name);
  if (!configured) return undefined;
  try {
    await configured.store.consume(key);
    return undefined;
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    metrics().rateLimited.inc({ limit: POLICY_NAMES[name] });
    return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  }
}

/** Whether `key` has spent its allowance: the seconds to wait, or undefined when it may go on. */
export async function blockedFor(name: LimitName, key: string): Promise<number | undefined> {
  const configured = limiter(name);
  const state = configured && (await configured.store.get(key));
  if (!configured || !state || state.consumedPoints < configured.limit.points) return undefined;
  metrics().rateLimited.inc({ limit: POLICY_NAMES[name] });
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/** Counts one failure against `key`, without refusing anything now (sign-in failures). */
export async function countFailure(name: LimitName, key: string): Promise<void> {
  await limiter(name)?.store.penalty(key);
}

/** Forgets `key`'s failures (a successful sign-in). */
export async function forgive(name: LimitName, key: string): Promise<void> {
  await limiter(name)?.store.delete(key);
}

/** Closes the counters' connections, if this process opened any (at shutdown). */
export async function closeRateLimits(): Promise<void> {
  await existingProcessGlobal<pg.Pool>("rate-limit.pool")?.end();
}

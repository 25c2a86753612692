import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import ms from "ms";
import { z } from "zod";
import { DATABASE_URL_RULE, DEFAULT_DATA_DIR, parseDatabaseUrl } from "@/lib/db/database-url";
import { singleSignOnConfig } from "@/lib/server/single-sign-on-config";
import type { WorkerSetting } from "@/lib/server/worker-count";

// The one place that reads process.env. Everything is validated once, on first
// use (start-up, via instrumentation.ts, or a CLI), and a bad value stops the
// process with a message naming the variable.

const port = z.coerce.number().int().min(1).max(65535);
const milliseconds = z.coerce.number().int().min(1, "must be a whole number of milliseconds, at least 1");

/**
 * Which proxies' X-Forwarded-For to believe: none (false, the default: the
 * client is the socket's peer), every one (true), the nearest N (a number),
 * or those at the listed addresses and CIDR ranges (proxy-addr's names
 * loopback, linklocal and uniquelocal included).
 */
const trustProxySchema = z
  .string()
  .transform((text, ctx): TrustProxy => {
    const value = text.trim().toLowerCase();
    if (value === "false") return false;
    if (value === "true") return true;
    if (/^\d+$/.test(value)) return Number(value);
    const list = value.split(",").map((entry) => entry.trim()).filter(Boolean);
    const valid = list.every((entry) => /^(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)$/.test(entry));
    if (list.length === 0 || !valid) {
      ctx.addIssue({ code: "custom", message: "must be false, true, a number of hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal" });
      return z.NEVER;
    }
    return list;
  })
  .or(z.literal(false));

export type TrustProxy = boolean | number | string[];

/** A rate limit, "<points>/<duration>" (e.g. 6000/1m, 5/15m), or off. */
const rateLimitSchema = z.string().transform((text, ctx): RateLimit | null => {
  if (text.trim().toLowerCase() === "off") return null;
  const [points, duration] = text.split("/").map((part) => part.trim());
  const durationMs = duration ? (ms(duration as ms.StringValue) as number | undefined) : undefined;
  if (!points || !/^\d+$/.test(points) || Number(points) < 1 || durationMs === undefined || !(durationMs >= 1000)) {
    ctx.addIssue({ code: "custom", message: 'must be "<requests>/<duration>" such as 6000/1m or 5/15m, or off' });
    return z.NEVER;
  }
  return { points: Number(points), durationSeconds: Math.round(durationMs / 1000) };
});

export type RateLimit = { points: number; durationSeconds: number };

/** A boolean variable: true or false (any case). */
const booleanSchema = z
  .string()
  .transform((text) => text.trim().toLowerCase())
  .pipe(z.enum(["true", "false"], "must be true or false"))
  .transform((text) => text === "true");

/** Webhook retry delays: comma-separated durations such as 0,5s,5m,30m (ms's syntax; 0 is at once). */
const retryScheduleSchema = z.string().transform((text, ctx): number[] => {
  const delays = text.split(",").map((part) => (part.trim() === "0" ? 0 : (ms(part.trim() as ms.StringValue) as number | undefined)));
  if (delays.length === 0 || delays.some((delay) => delay === undefined || !(delay >= 0))) {
    ctx.addIssue({ code: "custom", message: "must be comma-separated durations such as 0,5s,5m,30m,2h,5h,10h,10h" });
    return z.NEVER;
  }
  return delays as number[];
});

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long activity records are kept: a duration with its unit (400d, 52w,
 * 12h; ms's syntax), at least an hour, or forever (null). A bare number is
 * refused: ms would read it as milliseconds, and remove every record.
 */
const retentionSchema = z.string().transform((text, ctx): number | null => {
  const value = text.trim().toLowerCase();
  if (value === "forever") return null;
  const durationMs = /^\d+(\.\d+)?\s*[a-z]+$/.test(value) ? (ms(value as ms.StringValue) as number | undefined) : undefined;
  if (durationMs === undefined || !(durationMs >= HOUR_MS)) {
    // "6m" is six minutes to ms, not six months.
    ctx.addIssue({ code: "custom", message: "must be a duration of at least an hour with its unit, such as 400d, 52w or 12h (m is minutes: write months as days), or forever" });
    return z.NEVER;
  }
  return durationMs;
});

/**
 * How often the scheduled backups run: a duration with its unit (1h, 30m,
 * 1d; ms's syntax), at least ten seconds. A bare number is refused: ms would
 * read it as milliseconds, and the app would do nothing but back up.
 */
const backupIntervalSchema = z.string().transform((text, ctx): number => {
  const value = text.trim().toLowerCase();
  const durationMs = /^\d+(\.\d+)?\s*[a-z]+$/.test(value) ? (ms(value as ms.StringValue) as number | undefined) : undefined;
  if (durationMs === undefined || !(durationMs >= 10_000)) {
    ctx.addIssue({ code: "custom", message: "must be a duration of at least ten seconds with its unit, such as 1h, 30m or 1d" });
    return z.NEVER;
  }
  return durationMs;
});

const KEEP_RULE = "must be a whole number of backups, at least 1";
const STREAMS_RULE = "must be a whole number of streams, at least 1";
const POOL_RULE = "must be a whole number of connections, 1 to 1000";

/** Server processes (issue 25): a whole number, at least 1, or auto (lib/server/worker-count.ts). */
const workersSchema = z.string().transform((text, ctx): WorkerSetting => {
  const value = text.trim().toLowerCase();
  if (value === "auto") return "auto";
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1024) {
    ctx.addIssue({ code: "custom", message: "must be a whole number of server processes, 1 to 1024, or auto (one per core, as many as fit in memory)" });
    return z.NEVER;
  }
  return Number(value);
});

// With PostgreSQL the app may run as several instances, and each must hold
// the same secrets; one generated into a machine's DATA_DIR is that machine's
// alone. Each is asked of the processes whose own work uses it, and of no
// other (requireSharedSecrets): the web server both, NEXTAUTH_SECRET for
// sessions and tokens and NEXT_SERVER_ACTIONS_ENCRYPTION_KEY for Next.js's
// server actions; the webhook worker and the CLI commands that seal or sign
// with it NEXTAUTH_SECRET; db:migrate and db neither.
const SHARED_SECRETS = ["NEXTAUTH_SECRET", "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY"] as const;

export type SharedSecret = (typeof SHARED_SECRETS)[number];

/** What the web server's work uses: sessions and API tokens, and Next.js's server actions. */
export const WEB_SERVER_SECRETS: readonly SharedSecret[] = SHARED_SECRETS;

const variablesSchema = z.object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
    DATABASE_URL: z.string().optional(),
    // PostgreSQL: the most connections one server process (each worker) opens for the app's queries.
    DATABASE_POOL_SIZE: z.coerce.number({ error: POOL_RULE }).int(POOL_RULE).min(1, POOL_RULE).max(1000, POOL_RULE).default(10),
    HOST: z.string().min(1).default("0.0.0.0"),
    PORT: port.default(3000),
    // How many server processes answer on PORT: a number, or auto for one per core (as many as fit in memory).
    WEB_CONCURRENCY: workersSchema.default("auto"),
    // Slow clients: how long one may take to send its headers, and its whole request.
    HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
    REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
    // How long an idle keep-alive connection stays open; behind a load balancer, longer than its idle timeout.
    KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(5_000),
    // After a stop signal (SIGTERM, SIGINT, SIGHUP): how long to go on serving while readiness answers 503 (so a
    // load balancer stops sending requests before the port closes), then how long the requests in flight may take.
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
    SHUTDOWN_TIMEOUT_MS: milliseconds.default(10_000),
    TRUST_PROXY: trustProxySchema.default(false),
    METRICS_HOST: z.string().min(1).default("127.0.0.1"),
    METRICS_PORT: z.union([z.literal("off"), port]).default(9464),
    NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters (openssl rand -base64 32)").optional(),
    NEXTAUTH_URL: z.url().optional(),
    // Read by Next.js itself (server actions); checked here so a bad key fails at start.
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: z
      .string()
      .refine(isAesKeyInBase64, "must be a base64 AES key of 16, 24 or 32 bytes (openssl rand -base64 32)")
      .optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    // Browser origins allowed to call the API with bearer tokens (CORS); none by default.
    CORS_ORIGINS: z
      .string()
      .transform((text) => text.split(",").map((origin) => origin.trim()).filter(Boolean))
      .pipe(z.array(z.string().refine((origin) => URL.canParse(origin) && new URL(origin).origin === origin, "must list origins such as https://shop.example, comma-separated, without paths")))
      .default([]),
    // Requests per API token (or signed-in staff member) on the API.
    RATE_LIMIT_API: rateLimitSchema.default({ points: 6000, durationSeconds: 60 }),
    // Requests without valid credentials, per client address: what a token guesser gets.
    RATE_LIMIT_ANONYMOUS: rateLimitSchema.default({ points: 60, durationSeconds: 60 }),
    // Failed sign-ins, per client address and per account (whether or not it exists).
    RATE_LIMIT_SIGN_IN_ADDRESS: rateLimitSchema.default({ points: 30, durationSeconds: 900 }),
    RATE_LIMIT_SIGN_IN_ACCOUNT: rateLimitSchema.default({ points: 5, durationSeconds: 900 }),
    // Password reset emails asked for from the sign-in page, per client address and per email typed.
    RATE_LIMIT_RESET_REQUEST_ADDRESS: rateLimitSchema.default({ points: 30, durationSeconds: 900 }),
    RATE_LIMIT_RESET_REQUEST_ACCOUNT: rateLimitSchema.default({ points: 5, durationSeconds: 900 }),
    // Invitation and reset links tried that open nothing (unknown, used, expired, withdrawn), per client address.
    RATE_LIMIT_LINK_ADDRESS: rateLimitSchema.default({ points: 30, durationSeconds: 900 }),
    // Passkey sign-in challenges made, per client address: each sign-in page asks for one as it loads,
    // and each is a database row for five minutes, so a script must not make them without end.
    RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS: rateLimitSchema.default({ points: 60, durationSeconds: 60 }),
    // Email (optional): where invitations and password resets are sent from. Without SMTP_URL,
    // links are shown only to the owner who makes them.
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example:465" })
      .optional(),
    MAIL_FROM: z.string().trim().min(3, "must be an address such as Plant Store <plants@shop.example>").optional(),
    // Webhooks: whether this process runs the delivery worker (off when `npm run worker` runs it apart),
    // the delays before each attempt, how long a receiver has to answer, and whether endpoints may be
    // http:// URLs and private, loopback or link-local addresses (for tests and closed networks only).
    WEBHOOK_WORKER: z.enum(["on", "off"], "must be on or off").default("on"),
    WEBHOOK_RETRY_SCHEDULE: retryScheduleSchema.default([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]),
    WEBHOOK_TIMEOUT_MS: milliseconds.default(15_000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanSchema.default(false),
    // How long activity records are kept (issue 22), and the records of sign-ins, which may be kept shorter
    // (90 days by default). Unset, the sign-ins' period follows a shorter ACTIVITY_RETENTION down.
    ACTIVITY_RETENTION: retentionSchema.default(400 * DAY_MS),
    ACTIVITY_SIGN_IN_RETENTION: retentionSchema.optional(),
    // The change feed (issue 32, GET /plants/events): how long a client may resume from a position (at
    // least as long as a webhook's retries last, about 28 hours), and how many streams one token or staff
    // member, and one client address, may hold open in each process.
    CHANGE_FEED_RETENTION: retentionSchema.default(7 * DAY_MS),
    LIVE_STREAMS_PER_CALLER: z.coerce.number({ error: STREAMS_RULE }).int(STREAMS_RULE).min(1, STREAMS_RULE).default(25),
    LIVE_STREAMS_PER_ADDRESS: z.coerce.number({ error: STREAMS_RULE }).int(STREAMS_RULE).min(1, STREAMS_RULE).default(200),
    // Scheduled backups of a SQLite database (issue 23): a checked copy into BACKUP_DIR every
    // BACKUP_INTERVAL, the newest BACKUP_KEEP kept. Off unless BACKUP_DIR is set.
    BACKUP_DIR: z.string().min(1).optional(),
    BACKUP_INTERVAL: backupIntervalSchema.default(HOUR_MS),
    BACKUP_KEEP: z.coerce.number({ error: KEEP_RULE }).int(KEEP_RULE).min(1, KEEP_RULE).default(24),
    // Single sign-on (issue 34): one OpenID Connect provider. Read as text and never refused here: a
    // mistake in them leaves the app running without it, and says why (lib/server/single-sign-on-config.ts).
    OIDC_ISSUER: z.string().trim().optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    OIDC_NAME: z.string().optional(),
    OIDC_ALLOWED_DOMAINS: z.string().optional(),
  });

/** Every variable the app reads (.env.example documents each; a test keeps the two in step). */
export const ENV_VARIABLES = Object.keys(variablesSchema.shape);

const envSchema = variablesSchema
  .transform((vars, ctx) => {
    const dataDir = path.resolve(vars.DATA_DIR);
    const database = parseDatabaseUrl(vars.DATABASE_URL, dataDir);
    if (!database) {
      ctx.addIssue({ code: "custom", path: ["DATABASE_URL"], message: DATABASE_URL_RULE });
      return z.NEVER;
    }
    if (vars.SMTP_URL !== undefined) {
      // Emailed links lead to NEXTAUTH_URL, never to the Host a request names: anyone may ask for a
      // reset email, and a forged Host would otherwise send its link to their own site.
      const needs = { MAIL_FROM: "the sender of the app's emails, such as Plant Store <plants@shop.example>", NEXTAUTH_URL: "the address emailed links lead to, such as https://plants.shop.example" };
      const missing = (["MAIL_FROM", "NEXTAUTH_URL"] as const).filter((name) => vars[name] === undefined);
      for (const name of missing) ctx.addIssue({ code: "custom", path: [name], message: `must be set when SMTP_URL is: ${needs[name]}` });
      if (missing.length > 0) return z.NEVER;
    }
    if (database.provider === "postgresql" && vars.BACKUP_DIR !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["BACKUP_DIR"],
        message: "backs up a SQLite database; this one is PostgreSQL, which pg_dump backs up (npm run --silent db -- backup shows the command)",
      });
      return z.NEVER;
    }
    // A sign-in is a record like any other: ACTIVITY_RETENTION removes it at the latest. A longer period set
    // for sign-ins could not be kept, and starting with it would hide the operator's mistake.
    const signIns = vars.ACTIVITY_SIGN_IN_RETENTION;
    if (signIns !== undefined && vars.ACTIVITY_RETENTION !== null && (signIns === null || signIns > vars.ACTIVITY_RETENTION)) {
      ctx.addIssue({
        code: "custom",
        path: ["ACTIVITY_SIGN_IN_RETENTION"],
        message: "must not be longer than ACTIVITY_RETENTION: sign-in records may be kept shorter than the other records, not longer",
      });
      return z.NEVER;
    }
    // Read (or made) last, once every variable is known to be valid; on PostgreSQL never made: it would be this machine's alone.
    const authSecret = vars.NEXTAUTH_SECRET ?? (database.provider === "sqlite" ? readOrCreateSecret(dataDir) : undefined);
    return {
      nodeEnv: vars.NODE_ENV,
      dataDir,
      database,
      /** PostgreSQL connections per server process for the app's queries (the rate limits keep 4 more of their own). */
      databasePoolSize: vars.DATABASE_POOL_SIZE,
      host: vars.HOST,
      port: vars.PORT,
      /** Server processes on PORT: a number, or auto (lib/server/worker-count.ts says how many that is). */
      workers: vars.WEB_CONCURRENCY,
      timeouts: {
        headersMs: vars.HEADERS_TIMEOUT_MS,
        requestMs: vars.REQUEST_TIMEOUT_MS,
        keepAliveMs: vars.KEEP_ALIVE_TIMEOUT_MS,
        shutdownDelayMs: vars.SHUTDOWN_DELAY_MS,
        shutdownMs: vars.SHUTDOWN_TIMEOUT_MS,
      },
      trustProxy: vars.TRUST_PROXY,
      /** Where Prometheus scrapes /metrics: a separate listener, on loopback unless METRICS_HOST says otherwise. */
      metrics: vars.METRICS_PORT === "off" ? null : { host: vars.METRICS_HOST, port: vars.METRICS_PORT },
      /** NEXTAUTH_SECRET, or on SQLite DATA_DIR/auth-secret; on PostgreSQL without NEXTAUTH_SECRET, reading it refuses, naming the variable. */
      get authSecret(): string {
        return authSecret ?? refuseMissingSecrets(["NEXTAUTH_SECRET"]);
      },
      /** On PostgreSQL, the shared secrets that are not set (a process whose work uses one refuses to run: requireSharedSecrets); none on SQLite. */
      missingSharedSecrets: database.provider === "postgresql" ? SHARED_SECRETS.filter((name) => vars[name] === undefined) : [],
      authUrl: vars.NEXTAUTH_URL,
      logLevel: vars.LOG_LEVEL,
      corsOrigins: vars.CORS_ORIGINS,
      rateLimits: {
        api: vars.RATE_LIMIT_API,
        anonymous: vars.RATE_LIMIT_ANONYMOUS,
        signInAddress: vars.RATE_LIMIT_SIGN_IN_ADDRESS,
        signInAccount: vars.RATE_LIMIT_SIGN_IN_ACCOUNT,
        resetRequestAddress: vars.RATE_LIMIT_RESET_REQUEST_ADDRESS,
        resetRequestAccount: vars.RATE_LIMIT_RESET_REQUEST_ACCOUNT,
        linkAddress: vars.RATE_LIMIT_LINK_ADDRESS,
        passkeyChallengeAddress: vars.RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS,
      },
      /** The OpenID Connect provider staff may sign in with: off, misconfigured (and why), or on. */
      singleSignOn: singleSignOnConfig(vars),
      /** Where the app's emails go out; null sends none. */
      mail: vars.SMTP_URL && vars.MAIL_FROM ? { smtpUrl: vars.SMTP_URL, from: vars.MAIL_FROM } : null,
      webhooks: {
        worker: vars.WEBHOOK_WORKER === "on",
        /** Milliseconds to wait before each attempt: the first is at the event, the last is the last. */
        retryScheduleMs: vars.WEBHOOK_RETRY_SCHEDULE,
        timeoutMs: vars.WEBHOOK_TIMEOUT_MS,
        allowPrivateTargets: vars.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      },
      /** How long activity records are kept, in milliseconds; null is forever. signInsMs is never longer than recordsMs. */
      activityRetention: {
        recordsMs: vars.ACTIVITY_RETENTION,
        signInsMs: signIns === undefined ? shorterRetention(90 * DAY_MS, vars.ACTIVITY_RETENTION) : signIns,
      },
      /** The change feed: how long changes are kept, in milliseconds (null: forever), and the open streams allowed per process. */
      changeFeed: {
        retentionMs: vars.CHANGE_FEED_RETENTION,
        streamsPerCaller: vars.LIVE_STREAMS_PER_CALLER,
        streamsPerAddress: vars.LIVE_STREAMS_PER_ADDRESS,
      },
      /** Where the CLI's backups go unless it is given a file, and the scheduled ones; null: DATA_DIR/backups, and none scheduled. */
      backupDir: vars.BACKUP_DIR === undefined ? null : path.resolve(vars.BACKUP_DIR),
      /** The scheduled backups, when BACKUP_DIR is set: every intervalMs, the newest `keep` kept. */
      backupSchedule: vars.BACKUP_DIR === undefined ? null : { intervalMs: vars.BACKUP_INTERVAL, keep: vars.BACKUP_KEEP },
    };
  });

/** The configuration as the app uses it: what the schema makes of the environment. */
export type Env = z.output<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

let cached: Env | undefined;

export function env(): Env {
  // next-auth reads NEXTAUTH_URL itself and fails on an empty one (Invalid
  // URL); here, as for every variable, empty means unset.
  if (process.env.NEXTAUTH_URL === "") delete process.env.NEXTAUTH_URL;
  cached ??= loadEnv(process.env);
  return cached;
}

export function loadEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as it does for most shells' users.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) throw invalidConfiguration(parsed.error.issues.map((issue) => ({ variable: issue.path.join("."), message: issue.message })));
  return parsed.data;
}

/**
 * Stops a process whose own work uses shared secrets that are not set, naming
 * each: on PostgreSQL only (on SQLite's one machine, NEXTAUTH_SECRET is made
 * into DATA_DIR). Called where the work begins, before anything is written.
 */
export function requireSharedSecrets(names: readonly SharedSecret[], config: Env = env()): void {
  const missing = config.missingSharedSecrets.filter((name) => names.includes(name));
  if (missing.length > 0) refuseMissingSecrets(missing);
}

function refuseMissingSecrets(names: readonly SharedSecret[]): never {
  throw invalidConfiguration(
    names.map((variable) => ({ variable, message: "must be set when DATABASE_URL is PostgreSQL: every instance needs the same value (openssl rand -base64 32)" })),
  );
}

function invalidConfiguration(issues: readonly { variable: string; message: string }[]): EnvError {
  return new EnvError(`Invalid configuration (see .env.example):\n${issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join("\n")}`);
}

/**
 * The first start needs no configuration: without NEXTAUTH_SECRET a random one
 * is made once and kept beside the data, readable by its owner only. Tokens and
 * sessions stay valid across restarts because every process reads the same file.
 */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: link() fails if another process won
  // the race, and no reader ever sees a half-written file.
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, randomBytes(32).toString("base64url"), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if (!isFileExists(error)) throw error;
  } finally {
    unlinkSync(draft);
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new EnvError(`${file} holds no usable secret; delete it to make a new one`);
  return secret;
}

function isFileExists(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "EEXIST";
}

/** The shorter of two retention periods, where null is forever. */
function shorterRetention(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

function isAesKeyInBase64(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  return [16, 24, 32].includes(Buffer.from(value, "base64").length);
}

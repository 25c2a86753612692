import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// The one place that reads process.env. Everything is validated once, on first
// use (start-up, via instrumentation.ts, or a CLI), and a bad value stops the
// process with a message naming the variable.

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^file:.+/, "must be a SQLite file URL such as file:./data/plant-store.db")
    .optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters (openssl rand -base64 32)").optional(),
  NEXTAUTH_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  dataDir: string;
  /** Absolute path of the SQLite database file. */
  databasePath: string;
  port: number;
  authSecret: string;
  authUrl: string | undefined;
  logLevel: "debug" | "info" | "warn" | "error";
};

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
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid configuration (see .env.example):\n${lines.join("\n")}`);
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  const databasePath = vars.DATABASE_URL
    ? path.resolve(vars.DATABASE_URL.replace(/^file:/, ""))
    : path.join(dataDir, "plant-store.db");
  return {
    nodeEnv: vars.NODE_ENV,
    dataDir,
    databasePath,
    port: vars.PORT,
    authSecret: vars.NEXTAUTH_SECRET ?? readOrCreateSecret(dataDir),
    authUrl: vars.NEXTAUTH_URL,
    logLevel: vars.LOG_LEVEL,
  };
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

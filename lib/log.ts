import { env } from "@/lib/env";

// One JSON object per line on stderr, for whatever collects the process's output.
// Callers pass facts, never secrets: tokens, passwords and the auth secret are
// not logged anywhere in this codebase.

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

function write(level: Level, message: string, fields: Record<string, unknown>) {
  if (LEVELS[level] < LEVELS[env().logLevel]) return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

export const log = {
  debug: (message: string, fields: Record<string, unknown> = {}) => write("debug", message, fields),
  info: (message: string, fields: Record<string, unknown> = {}) => write("info", message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write("warn", message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write("error", message, fields),
};

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.name, detail: error.message, stack: error.stack };
  return { error: String(error) };
}

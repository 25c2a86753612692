import { log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";

// What every API request leaves behind, however it was answered: one log line
// and the request metrics. Who called is named by the token's or the staff
// member's id only; never a token, a password, a cookie or a body.

export type RequestRecord = {
  requestId: string;
  operation: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  tokenId?: string;
  userId?: string;
};

// Pages whose path ends in a one-time secret (an invitation or a password reset
// link, lib/auth/accounts/account-link-url.ts): the log keeps the page, not the secret,
// wherever in a path, in whatever case, Node's parser met it.
const SECRET_IN_PATH = /(\/(?:join|reset-password))\/[^/?#]*/gi;

/** The path as it may be logged: a one-time link's secret left out. */
export function loggablePath(path: string): string {
  return path.replace(SECRET_IN_PATH, "$1/[secret]");
}

/** 499: the client closed the connection before the answer (nginx's convention), in logs and metrics only. */
export const CLIENT_CLOSED_REQUEST = 499;

export function recordRequest(record: RequestRecord, { quiet = false }: { quiet?: boolean } = {}): void {
  const { operation, status, durationMs } = record;
  metrics().requests.inc({ operation, status: String(status) });
  metrics().duration.observe({ operation }, durationMs / 1000);
  const line = { ...record, path: loggablePath(record.path), durationMs: Math.round(durationMs * 10) / 10 };
  // A 503 is a database (or an instance) that cannot serve just now, its cause logged as a warning where it
  // was met (lib/http/error-response.ts); 505 is the one 5xx a client brings on itself (the HTTP version it
  // chose). The other 5xx are faults.
  if (status === 503) log.warn("request", line);
  else if (status === 505) log.info("request", line);
  else if (status >= 500) log.error("request", line);
  else if (quiet) log.debug("request", line);
  else log.info("request", line);
}

import type pg from "pg";
import { withoutPassword } from "@/lib/db/database-url";

// The first connection a command makes to PostgreSQL (the migrator's, a
// copy's ends), and what it says when there is none: pg's own words are
// Node's socket error ("connect ECONNREFUSED 127.0.0.1:5432", or nothing at
// all when every address of a name refused), which names neither the URL nor
// what to check. The URL is given as the operator wrote it, with <password>
// where its password was: what a command prints ends up in scrollback and CI logs.

/** No connection could be made to the PostgreSQL server a URL names. */
export class PostgresConnectError extends Error {
  override name = "PostgresConnectError";
}

/** Connects `client`, made for `url`; a failure names the URL (its password left out) and what happened. */
export async function connectPostgres(client: pg.Client, url: string): Promise<void> {
  try {
    await client.connect();
  } catch (error) {
    throw new PostgresConnectError(`cannot connect to PostgreSQL at ${withoutPassword(url)}: ${whyNotConnected(error)}`);
  }
}

/** What a failed connect means, in words, with the system's own (every address's, when a name has several); else the server's message. */
function whyNotConnected(error: unknown): string {
  const { code, message, errors } = (error ?? {}) as { code?: string; message?: string; errors?: { message?: string }[] };
  const words = message || errors?.map((each) => each.message).join("; ") || String(error);
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused (${words}): is the server running, and listening on that host and port?`;
    case "ENOTFOUND":
      return `no such host (${words}): check the host name`;
    case "EAI_AGAIN":
      return `the host name could not be looked up just now (${words}): try again, or check the host name`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `no answer from the server (${words}): check the host, the port, and any firewall between`;
    default:
      // The server's refusals say what they refuse: password authentication failed for user "plants", database "x" does not exist.
      return words;
  }
}

import pg from "pg";
import { describeError, log } from "@/lib/server/log";

// LISTEN on a connection of its own, outside the pool (a pooled connection
// would go back to the pool with its listening on). When the connection is
// lost, notifications sent meanwhile are lost with it: so the listener says
// when it is connected again, and its user reads the table then (the feed
// never trusts a notification to carry anything).

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;

export type Listener = { close(): Promise<void> };

export type ListenOptions = {
  url: string;
  channels: readonly string[];
  onNotification(channel: string): void;
  /** Once listening, the first time and after each reconnection: whatever was sent meanwhile was lost. */
  onListening(): void;
};

export function listenPostgres({ url, channels, onNotification, onListening }: ListenOptions): Listener {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const connection = new pg.Client({ connectionString: url, application_name: "plant-store live" });
    client = connection;
    connection.on("notification", (message) => onNotification(message.channel));
    connection.on("error", (error) => lost(connection, error));
    connection.on("end", () => lost(connection, new Error("the connection ended")));
    try {
      await connection.connect();
      for (const channel of channels) await connection.query(`LISTEN ${channel}`);
    } catch (error) {
      lost(connection, error);
      return;
    }
    if (closed || client !== connection) return;
    retryMs = FIRST_RETRY_MS;
    onListening();
  }

  function lost(connection: pg.Client, error: unknown): void {
    if (closed || client !== connection) return;
    client = undefined;
    connection.end().catch(() => {});
    log.warn("the live updates' database connection was lost; reconnecting", { ...describeError(error), retryMs });
    retry = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(LONGEST_RETRY_MS, retryMs * 2);
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}

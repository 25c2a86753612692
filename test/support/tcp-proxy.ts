import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

// A network path between the app and its database that a test can break:
// bytes pass through untouched until then. cut() is the database's host gone
// (every connection reset, new ones refused) until open(); severQuietly() is
// a failover or a firewall that dropped the connections without a word: the
// app learns of it only when it next sends on one.

export type TcpProxy = {
  port: number;
  /** Resets every connection through the proxy and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  open(): Promise<void>;
  /** Ends the database's side of every open connection; the app's side is reset when the app next sends on it. */
  severQuietly(): void;
  close(): Promise<void>;
};

type Pair = { app: Socket; database: Socket };

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  const server: Server = createServer((app) => {
    const pair = { app, database: connect(target.port, target.host) };
    pairs.add(pair);
    for (const socket of [pair.app, pair.database]) {
      socket.on("close", () => pairs.delete(pair));
      // A reset on one side is passed on as a reset of the other.
      socket.on("error", () => (socket === pair.app ? pair.database : pair.app).resetAndDestroy());
    }
    pair.app.pipe(pair.database).pipe(pair.app);
  });
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;

  async function cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const { app, database } of pairs) {
      app.resetAndDestroy();
      database.resetAndDestroy();
    }
    await closed;
  }

  function severQuietly(): void {
    for (const pair of pairs) {
      pairs.delete(pair);
      pair.app.unpipe(pair.database);
      pair.database.unpipe(pair.app);
      pair.database.removeAllListeners("error").on("error", () => {});
      pair.database.destroy();
      // Unpiped, the app's side is paused: resumed, so that what the app sends next is seen.
      pair.app.once("data", () => pair.app.resetAndDestroy()).resume();
    }
  }

  return { port, cut, open: () => listen(server, port), severQuietly, close: cut };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

import type { Server } from "node:http";
import type { Socket } from "node:net";

// Connections that have not sent a byte: a browser's preconnect, a client pool's spare, a request given up
// before it was written. Node counts such a connection as busy from the moment it is accepted (its headers
// time-out runs), so `closeIdleConnections` leaves it alone, and a stop's drain (lib/server/shutdown.ts)
// waited for it until HEADERS_TIMEOUT_MS answered it 408, or until the stop's deadline cut it and the
// process exited 1 (issue 44: an EventSource closed while it reconnected held a stop for 120 s).

/**
 * How long a connection may have been open, unused, before a stopping server closes it: a client that has
 * just connected is sending its request, which the stop still answers.
 */
const UNUSED_GRACE_MS = 1_000;

export type UnusedConnections = {
  /** Destroys the connections open for UNUSED_GRACE_MS or more that have sent nothing. */
  closeUnused(): void;
};

/** Follows `server`'s connections from now on, for closeUnused; each is let go of once it has closed. */
export function followUnusedConnections(server: Server): UnusedConnections {
  const opened = new Map<Socket, number>();
  server.on("connection", (socket: Socket) => {
    opened.set(socket, Date.now());
    socket.once("close", () => opened.delete(socket));
  });
  server.on("request", (request) => opened.delete(request.socket as Socket));
  return {
    closeUnused() {
      // Once this turn of the event loop has read what its connections sent: called from a timer, it runs
      // before the reads, and a process held up for a second on a loaded machine had a request waiting unread
      // in a connection it then took for unused (a workers-primary.test.ts writer cut with ECONNRESET).
      setImmediate(() => {
        const before = Date.now() - UNUSED_GRACE_MS;
        for (const [socket, at] of opened) {
          if (socket.bytesRead > 0) opened.delete(socket);
          else if (at <= before) socket.destroy();
        }
      });
    },
  };
}

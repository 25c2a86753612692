import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { NextRequest } from "next/server";
import { followActivityRoute } from "@/lib/live/activity-events-route";
import { type Connected, type Connection, END_GRACE_MS, streamConnector } from "@/lib/live/event-stream";
import { followPlantChangesRoute } from "@/lib/live/plant-events-route";

// The event streams (issue 32), answered by the production server itself on
// its own sockets, by the very route handlers Next.js is given (the same
// authentication, limits, log line, metrics and Error answers: lib/http/api-route.ts),
// but without Next's request machinery around them, which a stream holds for
// as long as it is open: its per-request stores, and its piping of each
// write from the web stream into the node response. A stream here writes to
// its socket itself (lib/live/event-stream.ts Connection). Measured with npm run bench:live
// (docs/operations.md): memory per stream and the time from a create to its
// event on every stream are what an open stream costs.

type RouteHandler = (request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const ROUTES: ReadonlyMap<string, RouteHandler> = new Map([
  ["/plants/events", followPlantChangesRoute],
  ["/activity/events", followActivityRoute],
]);

const NO_PARAMS = { params: Promise.resolve({}) };

/** The stream route a request is for, when the server answers it itself: GET or HEAD on the path as written (Next answers the rest, and any other spelling). */
export function directStream(request: IncomingMessage): RouteHandler | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const url = request.url ?? "";
  const query = url.indexOf("?");
  return ROUTES.get(query === -1 ? url : url.slice(0, query));
}

/** Answers `request` with `route`, as Next would have: the web Response written to the node one, an event stream straight to the socket. */
export async function serveDirectStream(route: RouteHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // A client gone ends the stream through its connection, not through the Request's signal: undici links
  // a Request's signal to the one it was given by a weak reference, and the Request (its headers, its URL:
  // a few KB) would have to be held for the stream's whole life for the link to hold. Nothing of the
  // request is kept once the stream is open.
  const client: { gone: boolean; connected?: Connected } = { gone: false };
  response.once("close", () => {
    client.gone = true;
    client.connected?.gone();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // The host as the client named it, as Next builds a request's URL; the path and query as sent.
  const answer = await route(new NextRequest(`http://${request.headers.host ?? "localhost"}${request.url}`, { method: request.method, headers }), NO_PARAMS);
  response.statusCode = answer.status;
  // Set, as Next sets a route's headers: over the server's defaults of the same name.
  for (const [name, value] of answer.headers) if (name !== "set-cookie") response.setHeader(name, value);
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) response.setHeader("set-cookie", cookies);
  const connect = answer.body && streamConnector(answer.body);
  if (!connect || request.method === "HEAD" || client.gone) {
    // An Error's answer (a few hundred bytes), a HEAD, or a client already gone.
    const bytes = request.method === "HEAD" || client.gone || !answer.body ? undefined : Buffer.from(await answer.arrayBuffer());
    if (connect) await answer.body?.cancel().catch(() => {});
    response.end(bytes);
    return;
  }
  client.connected = connect(socketConnection(response, request.socket, () => client.connected?.taken()));
}

/**
 * The node response as a stream's connection: each chunk one write, counted as waiting until the socket
 * has taken it. Node keeps each write not yet taken in a record of its own; the stream writes no more
 * than MAX_QUEUED_EVENTS ahead of the socket (lib/live/event-stream.ts), as ten thousand slow clients each
 * holding hundreds of them ran a worker out of its heap (bench:live on PostgreSQL).
 */
function socketConnection(response: ServerResponse, socket: Socket, taken: () => void): Connection {
  let waiting = 0;
  // Dropped once the stream has ended: the writes Node still holds must not keep the stream alive.
  let onTaken: (() => void) | undefined = taken;
  // The end, once the stream has ended, waiting for what was written to be taken.
  let ending: (() => void) | undefined;
  return {
    write(chunk, events) {
      waiting += events;
      response.write(chunk, () => {
        waiting -= events;
        onTaken?.();
        if (waiting === 0) ending?.();
      });
    },
    waiting: () => waiting,
    close(reason) {
      onTaken = undefined;
      if (reason === "client" || socket.destroyed) return;
      if (reason === "stalled") return reset(socket);
      resetAfterGrace(socket);
      ending = () => {
        ending = undefined;
        endAndClose(response, socket);
      };
      // Ended once what was written has been taken, not before: a stopping server's drain (lib/server/shutdown.ts)
      // closes an ended answer's connection as idle at once, which would drop what Node still holds for its
      // client, and leave the kernel's buffer of it in an orphan that no grace can reset.
      if (waiting === 0) ending();
    },
  };
}

/**
 * Ends the answer and then the connection (a FIN after the end): not kept for another request, and a client
 * that read the end closes its side, which tells the server it was taken. A client that has not by
 * END_GRACE_MS is reset.
 */
function endAndClose(response: ServerResponse, socket: Socket): void {
  if (socket.destroyed) return;
  response.end();
  socket.end();
}

/** Resets `socket` unless it has closed within END_GRACE_MS. */
function resetAfterGrace(socket: Socket): void {
  const grace = setTimeout(() => reset(socket), END_GRACE_MS).unref();
  socket.once("close", () => clearTimeout(grace));
}

/**
 * An abortive close (RST): the kernel drops what it had not sent. A plain close (FIN) would leave it an
 * orphan in FIN-WAIT-1 that holds the unsent bytes (3.9 MB, measured) and probes a client that reads
 * nothing for minutes (issue 44).
 */
function reset(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}

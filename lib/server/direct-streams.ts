import type { IncomingMessage, ServerResponse } from "node:http";
import { NextRequest } from "next/server";
import { followActivityRoute } from "@/lib/live/activity-events-route";
import { followPlantChangesRoute } from "@/lib/live/plant-events-route";
import { describeError, log } from "@/lib/server/log";

// The event streams (issue 32), answered by the production server itself on
// its own sockets, by the very route handlers Next.js is given (the same
// authentication, limits, log line, metrics and Error answers: lib/http/api-route.ts),
// but without Next's request machinery around them, which a stream holds for
// as long as it is open: its per-request stores, and its piping of each
// write from the web stream into the node response. Measured with npm run bench:live
// (docs/operations.md): memory per stream and the time from a create to its
// event on every stream are what an open stream costs.

type RouteHandler = (request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const ROUTES: ReadonlyMap<string, RouteHandler> = new Map([
  ["/plants/events", followPlantChangesRoute],
  ["/activity/events", followActivityRoute],
]);

const NO_PARAMS = { params: Promise.resolve({}) };

/** One stream's connection: whether the client is gone, the body being written, and what waits for the socket. */
type Connection = { closed: boolean; reader?: ReadableStreamDefaultReader<Uint8Array>; wake?: () => void };

/** The stream route a request is for, when the server answers it itself: GET or HEAD on the path as written (Next answers the rest, and any other spelling). */
export function directStream(request: IncomingMessage): RouteHandler | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const url = request.url ?? "";
  const query = url.indexOf("?");
  return ROUTES.get(query === -1 ? url : url.slice(0, query));
}

/** Answers `request` with `route`, as Next would have: the web Response written to the node one, its body at the connection's pace. */
export async function serveDirectStream(route: RouteHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // A client gone ends the stream by cancelling its body (lib/live/event-stream.ts ends on cancel), not
  // through the Request's signal: undici links a Request's signal to the one it was given by a weak
  // reference, and the Request (its headers, its URL: a few KB) would have to be held for the stream's
  // whole life for the link to hold. Nothing of the request is kept once the stream is open.
  const connection: Connection = { closed: false };
  response.once("close", () => {
    connection.closed = true;
    connection.reader?.cancel().catch(() => {});
    connection.wake?.();
  });
  connection.reader = await writeHead(route, request, response, connection);
  if (connection.reader) await pump(connection.reader, response, connection);
}

/** Runs the route and writes its status and headers; answers its body's reader, or undefined once the answer is whole. */
async function writeHead(route: RouteHandler, request: IncomingMessage, response: ServerResponse, connection: Connection): Promise<ReadableStreamDefaultReader<Uint8Array> | undefined> {
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
  if (!answer.body || request.method === "HEAD" || connection.closed) {
    await answer.body?.cancel().catch(() => {});
    response.end();
    return undefined;
  }
  response.flushHeaders();
  return answer.body.getReader();
}

/**
 * Writes at most this many events ahead of the connection: Node keeps each write not yet taken by the
 * socket in a record of its own (with its chunk-size line), and ten thousand slow clients each holding
 * a hundred of them ran a worker out of its heap (bench:live on PostgreSQL). Past it, events wait in the
 * stream's own queue, which holds at most MAX_QUEUED_EVENTS before the stream reads the table at the
 * connection's pace (lib/live/event-stream.ts).
 */
const UNFLUSHED_WRITES = 16;

/** Writes the body as it comes, waiting for the connection to take what it was given. */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, response: ServerResponse, connection: Connection): Promise<void> {
  let unflushed = 0;
  const flushed = () => {
    unflushed--;
    connection.wake?.();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || connection.closed) break;
      unflushed++;
      response.write(value, flushed);
      if (unflushed >= UNFLUSHED_WRITES && !connection.closed) {
        await new Promise<void>((resolve) => (connection.wake = resolve));
        connection.wake = undefined;
      }
    }
    response.end();
  } catch (error) {
    log.warn("an event stream failed", describeError(error));
    response.destroy();
  } finally {
    await reader.cancel().catch(() => {});
  }
}

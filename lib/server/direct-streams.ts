import type { IncomingMessage, ServerResponse } from "node:http";
import { NextRequest } from "next/server";
import { followActivityRoute } from "@/lib/live/activity-events-route";
import { followPlantChangesRoute } from "@/lib/live/plant-events-route";
import { describeError, log } from "@/lib/server/log";

// The event streams (issue 32), answered by the production server itself on
// its own sockets, by the very route handlers Next.js is given (the same
// authentication, limits, log line, metrics and Error answers: lib/http/api-route.ts),
// but without Next's request machinery around them, which a stream holds for
// as long as it is open: its per-request stores, and a web stream piped into
// the node response at each write. Measured with npm run bench:live
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

/** Answers `request` with `route`, as Next would have: the web Response written to the node one, its body at the connection's pace. */
export async function serveDirectStream(route: RouteHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // A client gone ends the stream by cancelling its body (lib/live/event-stream.ts ends on cancel), not
  // through the Request's signal: undici links a Request's signal to the one it was given by a weak
  // reference, and the Request (its headers, its URL: a few KB) would have to be held for the stream's
  // whole life for the link to hold. Nothing of the request is kept once the stream is open.
  const connection = { closed: false, reader: undefined as ReadableStreamDefaultReader<Uint8Array> | undefined };
  response.once("close", () => {
    connection.closed = true;
    connection.reader?.cancel().catch(() => {});
  });
  connection.reader = await writeHead(route, request, response, connection);
  if (connection.reader) await pump(connection.reader, response, connection);
}

/** Runs the route and writes its status and headers; answers its body's reader, or undefined once the answer is whole. */
async function writeHead(route: RouteHandler, request: IncomingMessage, response: ServerResponse, connection: { closed: boolean }): Promise<ReadableStreamDefaultReader<Uint8Array> | undefined> {
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

/** Writes the body as it comes, waiting for the connection to take what it was given. */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, response: ServerResponse, connection: { closed: boolean }): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || connection.closed) break;
      // Node keeps what the socket has not taken yet; the stream reads on once it has (lib/live/event-stream.ts counts what waits).
      if (!response.write(value) && !connection.closed) await new Promise((resolve) => response.once("drain", resolve).once("close", resolve));
    }
    response.end();
  } catch (error) {
    log.warn("an event stream failed", describeError(error));
    response.destroy();
  } finally {
    await reader.cancel().catch(() => {});
  }
}

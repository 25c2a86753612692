import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { ApiError } from "@/lib/http/api-error";
import { apiErrorResponse } from "@/lib/http/error-response";

// An Error answer written straight onto a connection, where Node's HTTP
// server offers no response object: a request it could not read (a parse
// error, a client too slow) and CONNECT. The connection closes after it.

// After the answer, how long the client may go on sending before the
// connection is cut. Closing a socket with unread data in it sends a reset,
// which can destroy the answer before the client reads it (nginx's "lingering
// close"); a client that never stops must not keep the connection either.
const LINGER_MS = 2_000;

// Node reports a parse error again for every chunk that arrives after it.
const answered = new WeakSet<Duplex>();

/** Writes the answer, once per connection, then closes the connection; false where it could take none. */
export async function answerOnSocket(socket: Duplex, error: ApiError, { requestId, headers }: { requestId: string; headers: Record<string, string> }): Promise<boolean> {
  if (answered.has(socket)) return false;
  answered.add(socket);
  const response = apiErrorResponse(error, requestId);
  const body = Buffer.from(await response.arrayBuffer());
  if (!socket.writable) {
    socket.destroy();
    return false;
  }
  // RFC 9110 section 6.6.1: an origin server with a clock sends Date on every 4xx.
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}`, `date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  lines.push(`content-length: ${body.length}`, "connection: close");
  socket.end(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  return true;
}

import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "@/lib/http/api-error";
import { MAX_HEADER_BYTES } from "@/lib/http/header-limits";
import { recordRequest } from "@/lib/server/request-record";
import { answerOnSocket } from "@/lib/server/socket-answer";

// What Node's HTTP server answers itself, before any request handler, to a
// request it cannot read: a malformed request line or header, a head larger
// than it reads, an HTTP version it does not speak, a client too slow. Left
// to Node, each is a bare status line with an empty body (issue 20); here
// each gets the Error body, the hardened headers and a request id, and is
// recorded like any other answer.

/** What Node's 'clientError' event hands over: a parse error (HPE_*, llhttp's code and reason), a timeout, or a failed connection. */
type ClientError = Error & { code?: string; reason?: string };

/** The 'clientError' listener: answers the client where its connection can still take an answer, and closes it. */
export function answerClientErrors(headers: Record<string, string>): (error: ClientError, socket: Duplex) => void {
  return (error, socket) => {
    const answer = errorFor(error);
    // As Node's own answer does (lib/_http_server.js, socketOnError): not over an answer already begun on this connection.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (!answer || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    void answerOnSocket(socket, answer.error, { requestId, headers }).then((sent) => {
      if (!sent) return;
      // A request already handed over (its body too slow) is named; a head that could not be read names
      // nothing. Such a request may be recorded twice: the API's route wrapper, if it got it, records its
      // own view, a 499 (the connection cut under it); this line says what the client was answered.
      const request = inFlight?.req;
      const path = (request?.url ?? "").split("?")[0]!;
      recordRequest({ requestId, operation: answer.operation, method: request?.method ?? "", path, status: answer.error.status, durationMs: 0 });
    });
  };
}

function errorFor({ code, reason }: ClientError): { operation: string; error: ApiError } | undefined {
  switch (code) {
    // The client closed its side before its request was whole: it has gone (a request Next was given is logged as 499).
    case "HPE_INVALID_EOF_STATE":
      return undefined;
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { operation: "requestTimeout", error: new ApiError("RequestTimeout", "the request did not arrive in time; send its headers and body without pausing") };
    case "HPE_HEADER_OVERFLOW":
      return { operation: "invalidRequest", error: new ApiError("HeaderFieldsTooLarge", `the request line and headers are larger than the ${MAX_HEADER_BYTES} bytes this server reads`) };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { operation: "invalidRequest", error: new ApiError("PayloadTooLarge", "the request body's chunk extensions are larger than this server reads") };
    // A version llhttp does not know (HTTP/1.2, HTTP/3.0), and an HTTP/2 client's preface sent without negotiation.
    case "HPE_INVALID_VERSION":
    case "HPE_PAUSED_H2_UPGRADE":
      return { operation: "invalidRequest", error: new ApiError("HttpVersionNotSupported", "this server speaks HTTP/1.1 and HTTP/1.0 only") };
  }
  // llhttp's reasons are its own fixed words ("Invalid header token"), never the request's bytes.
  if (code?.startsWith("HPE_")) return { operation: "invalidRequest", error: new ApiError("BadRequest", `the request is not valid HTTP/1.1: ${reason ?? code}`) };
  // The connection failed (ECONNRESET, EPIPE): there is no one left to answer.
  return undefined;
}

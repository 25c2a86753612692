import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { allowedMethods, type OperationDeclaration } from "@/lib/api/operations";
import { authenticateCaller, type Caller } from "@/lib/auth/sessions/caller";
import { ApiError } from "@/lib/http/api-error";
import { corsHeaders, preflightResponse } from "@/lib/http/cors";
import { errorResponse } from "@/lib/http/error-response";
import { MERGE_PATCH_MEDIA_TYPES } from "@/lib/http/json-body";
import { spend } from "@/lib/http/rate-limit";
import { clientAddress } from "@/lib/server/client-address";
import { metrics } from "@/lib/server/metrics";
import { CLIENT_CLOSED_REQUEST, recordRequest } from "@/lib/server/request-record";

// Every API route handler is wrapped here, by its operation's declaration:
// the request gets an id, the caller is authenticated by the declared scope
// before the handler runs (so no handler can forget it), whatever the handler
// throws becomes an Error answer, and every request, whatever its outcome,
// leaves one log line and its metrics (lib/server/request-record.ts).

type Params = Record<string, string | string[]>;

/** What a handler is given: the caller is null only for a public operation (scope: null). */
export type ApiContext<Declared extends Pick<OperationDeclaration, "scope">> = {
  request: NextRequest;
  /** The request's id (X-Request-Id), for what a handler logs after it has answered (a streamed body's failure). */
  requestId: string;
  params: Params;
  caller: Declared["scope"] extends null ? null : Caller;
};

type NextContext = { params: Promise<Params> };

export function apiRoute<const Declared extends Pick<OperationDeclaration, "operation" | "scope" | "quiet">>(
  declaration: Declared,
  handler: (context: ApiContext<Declared>) => Promise<Response>,
) {
  // Next.js hands route handlers a NextRequest: its URL is parsed once, by Next.
  return async (request: NextRequest, next: NextContext): Promise<Response> => {
    const requestId = randomUUID();
    const started = performance.now();
    metrics().inFlight.inc();
    let caller: Caller | null = null;
    let response: Response;
    try {
      // Authentication comes first: nothing about the request is read for a caller who may not make it.
      caller = declaration.scope === null ? null : await authenticateCaller(request, declaration.scope).catch(limitFailedAuthentication(request));
      const limit = caller ? await spend("api", callerKey(caller)) : {};
      const params = (await next?.params) ?? {};
      response = await handler({ request, requestId, params, caller } as ApiContext<Declared>);
      for (const [name, value] of Object.entries(limit)) response.headers.set(name, value);
    } catch (error) {
      // A client that hung up mid-request (mid-body, say) made the error: nothing to log as a fault.
      response = request.signal.aborted ? new Response(null, { status: CLIENT_CLOSED_REQUEST }) : errorResponse(error, requestId, request.method);
    } finally {
      metrics().inFlight.dec();
    }
    response.headers.set("x-request-id", requestId);
    // Vary adds to what the handler varied on (Accept, say) rather than replacing it.
    for (const [name, value] of Object.entries(corsHeaders(request))) {
      if (name === "vary") response.headers.append(name, value);
      else response.headers.set(name, value);
    }
    const record = {
      requestId,
      operation: declaration.operation,
      method: request.method,
      path: request.nextUrl.pathname,
      status: response.status,
      durationMs: performance.now() - started,
      ...(caller?.kind === "token" && { tokenId: caller.token.id }),
      ...(caller?.kind === "staff" && { userId: caller.user.id }),
    };
    recordRequest(record, { quiet: declaration.quiet });
    return response;
  };
}

/** A caller's own allowance: a token's, or a staff member's across their sessions. */
function callerKey(caller: Caller): string {
  return caller.kind === "token" ? `token:${caller.token.id}` : `staff:${caller.user.id}`;
}

/**
 * Every request that fails authentication spends its client address's
 * allowance, so a token guesser meets 429s (the same answer whichever token
 * it tried) instead of a stream of 401s.
 */
function limitFailedAuthentication(request: Request) {
  return async (error: unknown): Promise<never> => {
    if (error instanceof ApiError && error.kind === "Unauthorized") {
      await spend("anonymous", clientAddress(request), "too many requests without valid credentials from this address");
    }
    throw error;
  };
}

/** Handlers for the methods a path does not declare: 405 with Allow (RFC 9110 section 15.5.6), and OPTIONS. */
export function otherMethods(path: string) {
  const allow = [...allowedMethods(path), "OPTIONS"].join(", ");
  const refuse = apiRoute({ operation: "unsupportedMethod", scope: null }, async ({ request }) => {
    throw new ApiError("MethodNotAllowed", `method ${request.method} is not allowed here; allowed: ${allow}`, { headers: { allow } });
  });
  // RFC 5789 section 3.1: OPTIONS on a resource that takes PATCH names the patch formats it takes.
  const acceptPatch: Record<string, string> = allowedMethods(path).includes("PATCH") ? { "accept-patch": MERGE_PATCH_MEDIA_TYPES.join(", ") } : {};
  const options = async (request: Request) => preflightResponse(request, allow) ?? new Response(null, { status: 204, headers: { allow, ...acceptPatch } });
  return { GET: refuse, HEAD: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, POST: refuse, OPTIONS: options };
}

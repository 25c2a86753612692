import { randomUUID } from "node:crypto";
import { ApiError, errorResponse } from "@/lib/api-error";

// Every API route handler is wrapped once here: a request id for the logs and
// the one place where thrown errors become Error bodies. Handlers themselves
// stay straight-line: authenticate, parse, call lib/, respond.

export function apiRoute<Context>(handler: (request: Request, context: Context) => Promise<Response>) {
  return async (request: Request, context: Context): Promise<Response> => {
    const requestId = randomUUID();
    try {
      const response = await handler(request, context);
      response.headers.set("x-request-id", requestId);
      return response;
    } catch (error) {
      return errorResponse(error, requestId);
    }
  };
}

/** Handlers for the methods a path does not support: 405 with Allow (RFC 9110 section 15.5.6). */
export function otherMethods(allowed: readonly string[]) {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const refuse = apiRoute(async (request: Request) => {
    throw new ApiError(405, `method ${request.method} is not allowed here; allowed: ${allow}`, { headers: { allow } });
  });
  const options = async () => new Response(null, { status: 204, headers: { allow } });
  return { GET: refuse, HEAD: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, POST: refuse, OPTIONS: options };
}

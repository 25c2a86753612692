import { request } from "node:http";

// One request on a connection of its own, closed after the answer. With
// several workers, the primary hands each new connection to the next worker
// (lib/server/cluster-primary.ts); a client that keeps its connection alive
// (fetch does) talks to one worker only. The answer's X-Request-Id says which
// worker it was (test/support/app-log.ts).

export type Answer = { status: number; requestId: string; body: string };

/** timeoutMs: how long to wait for the answer before giving up with TIMEOUT (a connection left hanging). */
export type RequestOptions = { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number };

/** Fails as Node's client does (ECONNREFUSED, ECONNRESET...) where no answer comes, or with TIMEOUT. */
export function requestOnNewConnection(url: string, { method = "GET", headers = {}, body, timeoutMs }: RequestOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent: false, headers: { connection: "close", ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, requestId: String(response.headers["x-request-id"] ?? ""), body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    outgoing.on("error", reject);
    if (timeoutMs !== undefined) outgoing.setTimeout(timeoutMs, () => outgoing.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "TIMEOUT" })));
    outgoing.end(body);
  });
}

/** The code of a failed request's error (ECONNREFUSED, ECONNRESET...), or its message when it has none. */
export function failureCode(error: unknown): string {
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.code;
  return error instanceof Error ? error.message : String(error);
}

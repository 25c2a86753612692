import { type Agent, request as httpRequest } from "node:http";
import { buffer } from "node:stream/consumers";
import { logLines } from "./app-log";
import type { AppServer } from "./app-server";
import { HANG_GUARD_MS } from "./hang-guard";

// Requests to an app that runs several workers (WEB_CONCURRENCY, issue 25),
// and which worker answered each. The primary hands each new connection to
// the next worker, so a request on a connection of its own is how a test
// spreads its requests; the request log line a worker writes carries its
// place ("worker") and the request id the answer names (X-Request-Id).

export type Answer = {
  status: number;
  /** Each header that came once; Set-Cookie, which may come several times, is in setCookies. */
  headers: Record<string, string>;
  setCookies: string[];
  body: string;
  /** X-Request-Id, or "" where the answer named none. */
  requestId: string;
  /** The client's end of the connection: the same for requests that shared one. */
  localPort: number | undefined;
};

/** timeoutMs: how long to wait for the answer before giving up with TIMEOUT (a connection left hanging). */
export type SendInit = { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number };

/**
 * One request on a connection of its own (no agent: Node sends Connection: close), so
 * the primary hands it to the next worker; or, given an agent, on that agent's connections.
 * Fails as Node's client does (ECONNREFUSED, ECONNRESET...) where no answer comes, or with TIMEOUT.
 */
export function send(url: string, { method = "GET", headers = {}, body, timeoutMs }: SendInit = {}, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers: body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers }, agent });
    request.on("error", reject);
    if (timeoutMs !== undefined) request.setTimeout(timeoutMs, () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "TIMEOUT" })));
    request.on("response", (response) => {
      // Read while connected: a socket closed after the answer no longer says.
      const localPort = response.socket.localPort;
      const received = Object.fromEntries(Object.entries(response.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
      // A connection cut after the head and before the end of the body (a worker killed mid-answer) fails as one cut earlier.
      buffer(response).then((body) => {
        resolve({ status: response.statusCode ?? 0, headers: received, setCookies: response.headers["set-cookie"] ?? [], body: body.toString(), requestId: received["x-request-id"] ?? "", localPort });
      }, reject);
    });
    request.end(body);
  });
}

/** The same request `count` times, one after the other, each on a connection of its own: spread over the workers. */
export async function sendEach(count: number, url: string, init?: SendInit): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let index = 0; index < count; index++) answers.push(await send(url, init));
  return answers;
}

/** The code of a failed request's error (ECONNREFUSED, ECONNRESET, TIMEOUT...), or its message when it has none. */
export function failureCode(error: unknown): string {
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.code;
  return error instanceof Error ? error.message : String(error);
}

/** Each request's log line by its id. */
function requestLines(app: Pick<AppServer, "output">): Map<string, { worker?: number }> {
  return new Map(logLines(app.output()).flatMap((line) => (line.message === "request" && typeof line.requestId === "string" ? [[line.requestId, line]] : [])));
}

/**
 * The place of the worker that answered each request, from its request log
 * line: the line may reach the pipe a moment after the answer, so this waits
 * for every one (a request the log never names fails the test).
 */
export async function answeringWorkers(app: Pick<AppServer, "output">, answers: readonly Pick<Answer, "requestId">[]): Promise<number[]> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const lines = requestLines(app);
    const workers = answers.map((answer) => lines.get(answer.requestId)?.worker);
    if (workers.every((worker) => worker !== undefined)) return workers as number[];
    if (Date.now() > deadline) throw new Error(`no request log line with a worker for ${answers.filter((_, index) => workers[index] === undefined).map((answer) => answer.requestId).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The workers that answered, each once, in order: [0, 1] when both did. */
export async function distinctWorkers(app: Pick<AppServer, "output">, answers: readonly Pick<Answer, "requestId">[]): Promise<number[]> {
  return [...new Set(await answeringWorkers(app, answers))].sort();
}

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import next from "next";
import { startActivityRetention } from "@/lib/activity/retention";
import { allowedMethods, operationPath } from "@/lib/api/operations";
import { bearerChallenge } from "@/lib/auth/api-tokens/bearer-token";
import { followPrimaryScheduledBackups } from "@/lib/backup/backup-schedule-link";
import { configuredBackupSchedule, startScheduledBackups } from "@/lib/backup/scheduled-backups";
import { startSqliteCheckpoints } from "@/lib/db/sqlite-checkpoints";
import { ApiError } from "@/lib/http/api-error";
import { apiResource } from "@/lib/http/browser-pages";
import { errorResponse } from "@/lib/http/error-response";
import { MAX_HEADER_BYTES } from "@/lib/http/header-limits";
import { SERVICE_WORKER_PATH, securityHeaders, serviceWorkerContentSecurityPolicy } from "@/lib/http/security-headers";
import { startChangeRetention } from "@/lib/live/change-retention";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/server/client-address";
import { answerClientErrors } from "@/lib/server/client-errors";
import { listen } from "@/lib/server/listen";
import { env } from "@/lib/server/env";
import { lifecycle } from "@/lib/server/lifecycle";
import { logSingleSignOnAtStart } from "@/lib/auth/single-sign-on/sso-status";
import { log } from "@/lib/server/log";
import { answerPrimaryForMetrics, processMetrics } from "@/lib/server/metrics";
import { serveMetrics } from "@/lib/server/metrics-listener";
import { isClusterWorker, runsMachineJobs } from "@/lib/server/cluster-role";
import { recordRequest } from "@/lib/server/request-record";
import { varyAlwaysOn } from "@/lib/server/response-vary";
import { refuseForeignServerAction } from "@/lib/server/server-action-origin";
import { shutDownOnStop } from "@/lib/server/shutdown";
import { answerOnSocket } from "@/lib/server/socket-answer";
import { startServer } from "@/lib/server/startup";
import { holdStopSignals } from "@/lib/server/stop-signals";
import { followUnusedConnections } from "@/lib/server/unused-connections";
import { startWebhookWorker } from "@/lib/webhooks/delivery-worker";

// The production server (npm start): Next.js's own request handler, the same
// one `next start` uses, behind a node:http server of our own. Owning the
// server gives an operator what `next start` does not: timeouts for slow
// clients, a clean stop (lib/server/shutdown.ts), the client's real address,
// metrics on a listener of their own, and Error answers for requests Next
// cannot route (TRACE, CONNECT, two Authorization headers), for those Node
// cannot read (lib/server/client-errors.ts), and for server actions from
// another origin (lib/server/server-action-origin.ts).

// The methods Next.js's route handlers can be given; anything else is refused here.
const ROUTABLE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export async function runServer(): Promise<void> {
  const config = env();
  // Migrations first (the primary's, before it forks workers): the port opens only on a database that is ready.
  await startServer();
  // One of several workers behind a primary (lib/server/cluster-primary.ts), or the one server process.
  const clusterWorker = isClusterWorker();
  if (clusterWorker) answerPrimaryForMetrics();
  const app = next({ dev: false, dir: process.cwd(), hostname: nextHostname(config.host), port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // Once Next has loaded: the route handlers it serves through this module need Next's own set-up first.
  const { directStream, serveDirectStream } = await import("@/lib/server/direct-streams");

  // Until here a stop signal ended the process at once, with nothing to wait for; from here it starts the
  // jobs, which a stop must wait for, and a signal is kept for shutDownOnStop (lib/server/stop-signals.ts).
  // Started once Next.js has loaded, so that the loading itself (seconds on a busy machine) stops at once.
  holdStopSignals();
  // The jobs a machine needs once run in one process of several (worker 0, replaced in its place if it dies).
  const machineJobs = runsMachineJobs();
  if (config.database.provider === "sqlite" && machineJobs) startSqliteCheckpoints(config.database.path);
  // In every worker: each claim of a delivery is one process's alone (lib/webhooks/delivery-claims.ts).
  // Off where `npm run worker` sends the webhooks from a process of its own.
  const webhookWorker = config.webhooks.worker ? startWebhookWorker() : undefined;
  // Removes activity records past their retention, in every instance (concurrent runs share the work).
  const activityRetention = machineJobs ? startActivityRetention(config.activityRetention) : undefined;
  // And the change feed's old changes (concurrent runs on several instances remove each row once).
  const changeRetention = machineJobs ? startChangeRetention(config.changeFeed.retentionMs) : undefined;
  // With several workers the primary runs the scheduled backups (lib/backup/backup-schedule-link.ts); a
  // worker follows them before it serves, so that its first Backups page knows them.
  const backupSchedule = configuredBackupSchedule();
  if (backupSchedule && clusterWorker) followPrimaryScheduledBackups();

  const { headersMs, requestMs } = config.timeouts;
  const hardening = securityHeaders({ https: config.authUrl?.startsWith("https://") ?? false });
  // Node enforces both timeouts only when it checks its connections, every 30 s by default.
  const connectionsCheckingInterval = Math.min(1_000, headersMs, requestMs);
  const serverOptions = {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    connectionsCheckingInterval,
    maxHeaderSize: MAX_HEADER_BYTES,
    // Node would answer a missing Host with a bare 400 of its own; refuse() answers it.
    requireHostHeader: false,
  };
  const server = createServer(serverOptions, (request, response) => {
    for (const [name, value] of Object.entries(hardening)) response.setHeader(name, value);
    // A worker's CSP comes with its script, and must let the worker fetch what it keeps and sends.
    if (request.url?.split("?")[0] === SERVICE_WORKER_PATH) response.setHeader("content-security-policy", serviceWorkerContentSecurityPolicy());
    const refusal = refuse(request, config.authUrl);
    if (refusal) {
      if (refusal.close) response.setHeader("connection", "close");
      void answer(request, response, refusal);
      return;
    }
    request.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(request, config.trustProxy);
    if (hasPageByAccept(request.url ?? "/")) varyAlwaysOn(response, "Accept");
    if (lifecycle().shuttingDown) response.setHeader("connection", "close");
    const stream = directStream(request);
    if (stream) void serveDirectStream(stream, request, response);
    else void handle(request, response);
  });
  server.keepAliveTimeout = config.timeouts.keepAliveMs;
  // Before the port opens: a stop closes every connection that has sent nothing, from the first.
  const unusedConnections = followUnusedConnections(server);
  server.on("clientError", answerClientErrors(hardening));
  // Node answers an Expect it cannot meet with a bare 417 unless someone listens.
  server.on("checkExpectation", (request, response) => {
    for (const [name, value] of Object.entries(hardening)) response.setHeader(name, value);
    // The body it announced may follow, unasked for.
    response.setHeader("connection", "close");
    void answer(request, response, { operation: "invalidRequest", error: new ApiError("ExpectationFailed", "the only expectation this server meets is Expect: 100-continue") });
  });
  // Node closes a CONNECT request's connection unanswered unless someone listens.
  server.on("connect", (request: IncomingMessage, socket: Duplex) => void refuseConnect(request, socket, hardening));

  // Metrics first: a process that cannot open its metrics listener stops before it has taken a request.
  // A worker of several has none: the primary serves the metrics of all (lib/server/cluster-primary.ts).
  const metricsServer = config.metrics && !clusterWorker ? await serveMetrics(config.metrics, processMetrics()) : undefined;
  await listen(server, config, { port: "PORT", host: "HOST" });
  // Once serving: a process that fails to start takes none.
  if (backupSchedule && !clusterWorker) startScheduledBackups(backupSchedule);
  // At once for a signal kept while the server opened its port.
  shutDownOnStop({ server, unusedConnections, app, metricsServer, webhookWorker, activityRetention, changeRetention, delayMs: config.timeouts.shutdownDelayMs, timeoutMs: config.timeouts.shutdownMs });
  // A worker of several tells the primary, which says "listening" once all are.
  if (clusterWorker) {
    log.info("worker listening");
    return;
  }
  // The redirect URI to register at the provider, or what keeps single sign-on off (issue 34).
  logSingleSignOnAtStart();
  log.info("listening", { address: `http://${config.host}:${config.port}`, metrics: config.metrics ? `http://${config.metrics.host}:${config.metrics.port}/metrics` : "off" });
}

/**
 * Whether the URL is an API resource that a browser's page load gets the
 * staff page for (proxy.ts), so that every answer there depends on Accept
 * (RFC 9110 section 12.5.5).
 */
function hasPageByAccept(url: string): boolean {
  if (!url.startsWith("/plants")) return false;
  // The path as Next reads it; URL parsing (a few µs on every API request) only where it changes
  // the path: dot segments and backslashes.
  const path = url.split(/[?#]/, 1)[0]!;
  const resource = apiResource(/[.\\]/.test(path) ? new URL(url, "http://localhost").pathname : path);
  return resource !== undefined && resource.kind !== "operation";
}

// A loopback address as Next.js's proxy (middleware) writes it in its URLs (NextURL: 127.x.x.x and [::1] become localhost).
const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|::1|localhost)$/;

/**
 * The host Next.js names its own URLs after. Next compares a rewrite made in
 * proxy.ts with `http://<hostname>:<port>`, while the proxy sees a loopback
 * host as "localhost": under HOST=127.0.0.1 the two differ, and Next takes
 * the app's own rewrite (a browser's /plants/{id} to the plant's page) for
 * one to another server, and fails it with a 500 ("Failed to proxy"). Naming
 * loopback "localhost" makes them agree; the server still listens on the
 * configured address, and Next never connects to this name itself.
 */
function nextHostname(host: string): string {
  return LOOPBACK.test(host) ? "localhost" : host;
}

type Refusal = { operation: string; error: ApiError; close?: true };

/**
 * An answer for a request Next.js cannot be given, with the operation named
 * for the request log; close: the connection closes after it, as it does
 * after the answers Node would have written itself.
 */
function refuse(request: IncomingMessage, publicUrl: string | undefined): Refusal | undefined {
  // Node's parser reads HTTP/0.9 and HTTP/2.0 request lines too, and answers them as HTTP/1.1.
  if (request.httpVersionMajor !== 1) {
    return { operation: "invalidRequest", error: new ApiError("HttpVersionNotSupported", "this server speaks HTTP/1.1 and HTTP/1.0 only"), close: true };
  }
  const method = request.method ?? "";
  if (!ROUTABLE_METHODS.has(method)) return { operation: "unsupportedMethod", error: methodNotAllowed(method, request.url ?? "/") };
  // RFC 9112 section 3.2: a server MUST answer 400 to an HTTP/1.1 request without Host, and to any with more
  // than one (of which Node would keep the first and drop the other without a word).
  const hosts = countHeader(request.rawHeaders, "host");
  if (hosts > 1) return { operation: "invalidRequest", error: new ApiError("BadRequest", "the request has more than one Host header; send one"), close: true };
  if (hosts === 0 && request.httpVersionMinor === 1) {
    return { operation: "invalidRequest", error: new ApiError("BadRequest", "the request has no Host header; HTTP/1.1 requires one"), close: true };
  }
  // Node keeps the first of two Authorization headers and drops the other
  // without a word; which credential did the client mean? (RFC 6750 section 3.1)
  if (countHeader(request.rawHeaders, "authorization") > 1) {
    return {
      operation: "invalidRequest",
      error: bearerChallenge("BadRequest", "the request has more than one Authorization header; send one", { error: "invalid_request" }),
    };
  }
  const foreignAction = refuseForeignServerAction(request, publicUrl);
  if (foreignAction) return { operation: "serverAction", error: foreignAction };
  return undefined;
}

function methodNotAllowed(method: string, url: string): ApiError {
  const template = operationPath(new URL(url, "http://localhost").pathname);
  const allow = [...(template ? allowedMethods(template) : ["GET", "HEAD", "POST"]), "OPTIONS"].join(", ");
  return new ApiError("MethodNotAllowed", `method ${method} is not allowed here; allowed: ${allow}`, { headers: { allow } });
}

function countHeader(rawHeaders: string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === name) count++;
  return count;
}

/** Writes the Error answer, and records the request as the route wrapper would have. */
async function answer(request: IncomingMessage, response: ServerResponse, { operation, error }: Refusal): Promise<void> {
  const started = performance.now();
  const requestId = randomUUID();
  const web = errorResponse(error, requestId, request.method ?? "");
  response.writeHead(web.status, Object.fromEntries(web.headers));
  response.end(Buffer.from(await web.arrayBuffer()));
  recordRequest({ requestId, operation, method: request.method ?? "", path: (request.url ?? "/").split("?")[0]!, status: web.status, durationMs: performance.now() - started });
}

async function refuseConnect(request: IncomingMessage, socket: Duplex, headers: Record<string, string>): Promise<void> {
  const requestId = randomUUID();
  const error = new ApiError("MethodNotAllowed", "method CONNECT is not allowed: this is not a proxy", { headers: { allow: "GET, HEAD, POST, OPTIONS" } });
  if (!(await answerOnSocket(socket, error, { requestId, headers }))) return;
  recordRequest({ requestId, operation: "unsupportedMethod", method: "CONNECT", path: request.url ?? "", status: 405, durationMs: 0 });
}

import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, freePort, startApp } from "@/test/support/app-server";
import { openChangeStream } from "@/test/support/change-stream";

// What an operator reads: one JSON log line per API request, and Prometheus
// metrics on a listener of their own.

let app: AppServer;
let metricsPort: number;
let token: string;

beforeAll(async () => {
  metricsPort = await freePort();
  app = await startApp({ env: { METRICS_PORT: String(metricsPort) } });
  token = await createToken(app.database, ["plants:write"]);
});

afterAll(async () => {
  await app?.stop();
});

type LogLine = Record<string, unknown> & { level: string; message: string };

function logLines(): LogLine[] {
  return app
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

const requestLines = (requestId: string | null) => logLines().filter((line) => line.message === "request" && line.requestId === requestId);

describe("the request log", () => {
  it("has one line per request: time, request id, operation, status, duration and the token's id; never the token, a cookie or the body", async () => {
    const secretName = "a name that must not reach the log";
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", cookie: "next-auth.session-token=cookie-value" },
      body: JSON.stringify({ id: 1, name: secretName }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    await expect.poll(() => requestLines(requestId)).toHaveLength(1);
    const [line] = requestLines(requestId);
    expect(line).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      message: "request",
      requestId,
      operation: "createPlant",
      method: "POST",
      path: "/plants",
      status: 200,
      durationMs: expect.any(Number),
      tokenId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(app.output()).not.toContain(token);
    expect(app.output()).not.toContain("cookie-value");
    expect(app.output()).not.toContain(secretName);
  });

  it("logs refusals too, with no caller", async () => {
    const response = await fetch(`${app.url}/plants`, { headers: { authorization: "Bearer not-a-token" } });
    expect(response.status).toBe(401);
    await expect.poll(() => requestLines(response.headers.get("x-request-id"))).toEqual([
      expect.objectContaining({ level: "info", operation: "listPlants", status: 401 }),
    ]);
  });

  it("writes a client that hangs up mid-body as one line, status 499, with no error and no stack", async () => {
    const before = logLines().length;
    await new Promise<void>((resolve) => {
      const socket = connect(app.port, "127.0.0.1", () => {
        socket.write(`POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
    });
    await expect.poll(() => logLines().slice(before)).toEqual([expect.objectContaining({ level: "info", message: "request", operation: "createPlant", status: 499 })]);
    expect(JSON.stringify(logLines().slice(before))).not.toContain("stack");
  });
});

describe("the metrics", () => {
  async function scrape(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  }

  it("count requests, latency, tokens checked, group-commit batches and the process, in Prometheus's text format", async () => {
    await fetch(`${app.url}/plants`, { headers: { authorization: `Bearer ${token}` } });
    const text = await scrape();
    for (const expected of [
      /^plant_store_http_requests_total\{operation="createPlant",status="200"\} [1-9]/m,
      /^plant_store_http_requests_total\{operation="listPlants",status="401"\} [1-9]/m,
      // Every answer lands in the +Inf bucket: which finite bucket it lands in is the machine's speed, not the app's.
      /^plant_store_http_request_duration_seconds_bucket\{le="\+Inf",operation="listPlants"\} [1-9]/m,
      /^plant_store_http_request_duration_seconds_sum\{operation="listPlants"\} (?!0$)\d/m,
      /^plant_store_http_requests_in_flight 0$/m,
      /^plant_store_token_checks_total\{outcome="ok"\} [1-9]/m,
      /^plant_store_token_checks_total\{outcome="invalid"\} [1-9]/m,
      /^plant_store_group_commit_batch_size_count [1-9]/m,
      /^# TYPE plant_store_rate_limited_total counter$/m,
      /^# TYPE plant_store_database_errors_total counter$/m,
      /^plant_store_process_resident_memory_bytes \d+/m,
      /^plant_store_nodejs_eventloop_lag_seconds /m,
      /^plant_store_nodejs_heap_size_used_bytes /m,
    ]) {
      expect(text).toMatch(expected);
    }
  });

  it("count the event streams open, by feed, and those ended, by why", async () => {
    const stream = await openChangeStream(`${app.url}/plants/events`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    expect(await scrape()).toMatch(/^plant_store_event_streams_open\{feed="plants"\} 1$/m);
    stream.close();
    await expect.poll(scrape).toMatch(/^plant_store_event_streams_ended_total\{feed="plants",reason="client"\} 1$/m);
    expect(await scrape()).toMatch(/^plant_store_event_streams_open\{feed="plants"\} 0$/m);
  });

  it("are not served on the app's own port", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
  });
});

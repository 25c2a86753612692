import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "@/test/support/app-server";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";

// The answers Node's HTTP server would write itself (issue 20): to a request
// it cannot parse, one too slow, too large a head, an HTTP version it does not
// speak, an Expect it cannot meet, a missing Host. Each, sent over a raw TCP
// socket, gets the Error body, the hardened headers, a request id and
// Connection: close, and leaves a line in the request log and the metrics.

export function describeProtocolErrors(ownApp: () => AppServer): void {
  let app: AppServer;
  let metricsPort: number;

  beforeAll(() => {
    app = ownApp();
    metricsPort = Number(app.env.METRICS_PORT);
  });

  type Answer = { statusLine: string; headers: Record<string, string>; body: string };

  /** Sends the bytes and reads until the server closes the connection, which it must before the hang guard. */
  function exchange(bytes: string | null, withinMs = HANG_GUARD_MS): Promise<Answer> {
    return new Promise((resolve, reject) => {
      let received = Buffer.alloc(0);
      const socket = connect(app.port, "127.0.0.1", () => bytes !== null && socket.write(bytes));
      socket.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
      socket.on("error", () => {});
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the connection was not closed within ${withinMs} ms; received ${JSON.stringify(received.toString())}`));
      }, withinMs);
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(parseAnswer(received.toString("latin1")));
      });
    });
  }

  function parseAnswer(text: string): Answer {
    const end = text.indexOf("\r\n\r\n");
    const [statusLine = "", ...lines] = text.slice(0, end < 0 ? undefined : end).split("\r\n");
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    const raw = end < 0 ? "" : text.slice(end + 4);
    return { statusLine, headers, body: headers["transfer-encoding"] === "chunked" ? unchunk(raw) : raw };
  }

  function unchunk(raw: string): string {
    let body = "";
    for (let rest = raw; ; ) {
      const lineEnd = rest.indexOf("\r\n");
      const size = parseInt(rest.slice(0, lineEnd), 16);
      if (!(size > 0)) return body;
      body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
  }

  const HARDENING = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  };

  function expectErrorAnswer(answer: Answer, statusLine: string, message: string): void {
    expect(answer.statusLine).toBe(statusLine);
    const status = Number(statusLine.split(" ")[1]);
    expect(JSON.parse(answer.body)).toEqual({ error: status, message });
    expect(answer.headers).toMatchObject({ ...HARDENING, "content-type": "application/json", "cache-control": "no-store" });
    expect(answer.headers.connection?.toLowerCase()).toBe("close");
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.date).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
  }

  type LogLine = Record<string, unknown> & { level: string; message: string };

  function requestLine(requestId: string): Promise<LogLine> {
    const find = () =>
      app
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as LogLine)
        .find((line) => line.message === "request" && line.requestId === requestId);
    return expect.poll(find).toBeDefined().then(() => find()!);
  }

  const HEADER_LIMIT = 16 * 1024;

  describe.each<[string, string | null, string, string, string]>([
    ["a malformed request line", "GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request", "the request is not valid HTTP/1.1: Invalid method encountered", "invalidRequest"],
    [
      "a malformed header",
      "GET /plants HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
      "HTTP/1.1 400 Bad Request",
      "the request is not valid HTTP/1.1: Invalid header token",
      "invalidRequest",
    ],
    [
      "two Content-Lengths (a smuggling attempt)",
      "POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "HTTP/1.1 400 Bad Request",
      "the request is not valid HTTP/1.1: Duplicate Content-Length",
      "invalidRequest",
    ],
    [
      "headers larger than the limit",
      `GET /plants HTTP/1.1\r\nHost: x\r\nCookie: ${"a".repeat(HEADER_LIMIT)}\r\n\r\n`,
      "HTTP/1.1 431 Request Header Fields Too Large",
      `the request line and headers are larger than the ${HEADER_LIMIT} bytes this server reads`,
      "invalidRequest",
    ],
    ["HTTP/1.2", "GET /plants HTTP/1.2\r\nHost: x\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported", "this server speaks HTTP/1.1 and HTTP/1.0 only", "invalidRequest"],
    ["HTTP/2.0 in a request line", "GET /plants HTTP/2.0\r\nHost: x\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported", "this server speaks HTTP/1.1 and HTTP/1.0 only", "invalidRequest"],
    ["HTTP/2's preface, unnegotiated", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported", "this server speaks HTTP/1.1 and HTTP/1.0 only", "invalidRequest"],
    [
      "headers slower than HEADERS_TIMEOUT_MS",
      "GET /plants HTTP/1.1\r\nHost: x\r\n",
      "HTTP/1.1 408 Request Timeout",
      "the request did not arrive in time; send its headers and body without pausing",
      "requestTimeout",
    ],
    [
      "an Expect other than 100-continue",
      "POST /plants HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}",
      "HTTP/1.1 417 Expectation Failed",
      "the only expectation this server meets is Expect: 100-continue",
      "invalidRequest",
    ],
    ["HTTP/1.1 without Host", "GET /plants HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request", "the request has no Host header; HTTP/1.1 requires one", "invalidRequest"],
    [
      "two Host headers (Node would keep the first)",
      "GET /plants HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n",
      "HTTP/1.1 400 Bad Request",
      "the request has more than one Host header; send one",
      "invalidRequest",
    ],
  ])("%s", (_, bytes, statusLine, message, operation) => {
    it(`answers ${statusLine.slice(9)} in the Error shape with the hardened headers, closes the connection, and records it`, async () => {
      const answer = await exchange(bytes);
      expectErrorAnswer(answer, statusLine, message);
      const line = await requestLine(answer.headers["x-request-id"]!);
      expect(line).toMatchObject({ level: "info", operation, status: Number(statusLine.split(" ")[1]) });
    });
  });

  it("a body slower than REQUEST_TIMEOUT_MS is answered 408 in the Error shape, and recorded with its method and path", async () => {
    const answer = await new Promise<Answer>((resolve) => {
      let received = "";
      const socket = connect(app.port, "127.0.0.1", () => {
        socket.write("POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{");
        const dribble = setInterval(() => (socket.destroyed ? clearInterval(dribble) : socket.write(" ")), 200);
      });
      socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => resolve(parseAnswer(received)));
    });
    expectErrorAnswer(answer, "HTTP/1.1 408 Request Timeout", "the request did not arrive in time; send its headers and body without pausing");
    const line = await requestLine(answer.headers["x-request-id"]!);
    expect(line).toMatchObject({ level: "info", operation: "requestTimeout", method: "POST", path: "/plants", status: 408 });
  });

  it("CONNECT's refusal carries the hardened headers too", async () => {
    const answer = await exchange("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expectErrorAnswer(answer, "HTTP/1.1 405 Method Not Allowed", "method CONNECT is not allowed: this is not a proxy");
  });

  it("a client that goes on sending after a refusal is cut off, and answered once", async () => {
    const answer = await new Promise<string>((resolve) => {
      let received = "";
      const socket = connect({ port: app.port, host: "127.0.0.1", allowHalfOpen: true }, () => socket.write("GARBAGE\r\n\r\n"));
      const dribble = setInterval(() => !socket.destroyed && socket.write("more\r\n"), 100);
      socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(dribble);
        resolve(received);
      });
    });
    expect(answer.match(/HTTP\/1\.1 400 /g)).toHaveLength(1);
  });

  it("counts them in the request metrics", async () => {
    const metrics = async () => (await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).match(/^plant_store_http_requests_total\{operation="invalidRequest",status="431"\} (\d+)$/m)?.[1];
    const before = Number((await metrics()) ?? 0);
    await exchange(`GET / HTTP/1.1\r\nHost: x\r\nCookie: ${"a".repeat(HEADER_LIMIT)}\r\n\r\n`);
    await expect.poll(metrics).toBe(String(before + 1));
  });
}

import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken } from "@/test/support/app-server";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";
import { sharedApp } from "@/test/support/shared-app";
import { storedPlants } from "@/test/support/test-database";

// What the server answers itself, before Next.js: methods Next cannot route,
// a request with two Authorization headers, and clients too slow to finish one.

export function describeServerRefusals(ownApp: () => AppServer): void {
  let app: AppServer;
  let token: string;

  beforeAll(async () => {
    app = ownApp();
    token = await createToken(app.database, ["plants:write"], "1h", "server-refusals");
  });

  /** Sends raw bytes and reads until the server closes the connection; undefined if it did not before the hang guard. */
  function exchange(send: (socket: ReturnType<typeof connect>) => void, port = app.port): Promise<{ text: string } | undefined> {
    return new Promise((resolve) => {
      let text = "";
      const socket = connect(port, "127.0.0.1", () => send(socket));
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("error", () => {});
      socket.on("close", () => resolve({ text }));
      setTimeout(() => {
        socket.destroy();
        resolve(undefined);
      }, HANG_GUARD_MS).unref();
    });
  }

  describe("methods Next.js cannot route", () => {
    it.each(["TRACE", "PROPFIND", "LINK"])("%s /plants answers 405 in the Error shape with Allow", async (method) => {
      const answered = await exchange((socket) => socket.end(`${method} /plants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(answered?.text).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(answered?.text).toMatch(/\r\nallow: GET, HEAD, POST, OPTIONS\r\n/i);
      expect(answered?.text).toContain(`{"error":405,"message":"method ${method} is not allowed here; allowed: GET, HEAD, POST, OPTIONS"}`);
    });

    it("an unroutable method on a plant's path names that path's methods in Allow", async () => {
      const response = await fetch(`${app.url}/plants/7`, { method: "PROPPATCH" });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
    });

    it("CONNECT answers 405 in the Error shape and closes", async () => {
      const answered = await exchange((socket) => socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"));
      expect(answered?.text).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(answered?.text).toContain('{"error":405,"message":"method CONNECT is not allowed: this is not a proxy"}');
    });
  });

  it("refuses a request with two Authorization headers with 400 invalid_request, and writes nothing", async () => {
    const answered = await exchange((socket) =>
      socket.end(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer another\r\n` +
          'Content-Type: application/json\r\nContent-Length: 23\r\nConnection: close\r\n\r\n{"id":4242,"name":"No"}',
      ),
    );
    expect(answered?.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answered?.text).toMatch(/\r\nwww-authenticate: Bearer realm="plant-store", error="invalid_request", error_description="[^"]+"\r\n/i);
    expect(answered?.text).toContain('{"error":400,"message":"the request has more than one Authorization header; send one"}');
    expect((await storedPlants(app.database)).map((plant) => plant.id)).not.toContain(4242n);
  });

  describe("slow clients", () => {
    it("are cut off when their headers take longer than HEADERS_TIMEOUT_MS", async () => {
      const header = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ";
      const answered = await exchange((socket) => {
        let sent = 0;
        const dribble = setInterval(() => (socket.destroyed ? clearInterval(dribble) : socket.write(sent < header.length ? header[sent++]! : "a")), 200);
      });
      expect(answered, "the connection was not closed").toBeDefined();
      expect(answered!.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    });

    it("are cut off when their body takes longer than REQUEST_TIMEOUT_MS, and nothing is written", async () => {
      const answered = await exchange((socket) => {
        socket.write(`POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"id":4343,`);
        const dribble = setInterval(() => (socket.destroyed ? clearInterval(dribble) : socket.write(" ")), 200);
      });
      expect(answered, "the connection was not closed").toBeDefined();
      expect((await storedPlants(app.database)).map((plant) => plant.id)).not.toContain(4343n);
    });

    it("do not hold up anyone else meanwhile", async () => {
      // On the shared app, whose HEADERS_TIMEOUT_MS is long (test/support/app-server.ts), not this file's 1 s,
      // so that a loaded machine's slowness cannot cut the slow client off first: held up, the other request
      // would be answered only after. The test then hangs up on the slow client itself.
      const shared = sharedApp();
      let slowCut = false;
      let slowClient: ReturnType<typeof connect> | undefined;
      const slow = exchange((socket) => {
        slowClient = socket;
        socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
      }, Number(new URL(shared.url).port)).then(() => (slowCut = true));
      expect((await fetch(`${shared.url}/healthz`)).status).toBe(200);
      expect(slowCut, "answered only once the slow client was cut off").toBe(false);
      slowClient?.destroy();
      await slow;
    });
  });
}

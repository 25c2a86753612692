import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import { HANG_GUARD_MS } from "./hang-guard";

// A real webhook receiver for the tests: node:http on 127.0.0.1, answering as
// a script says (a status, Retry-After, a delay, or no answer at all), and
// verifying every delivery with the standardwebhooks library against each of
// the secrets it is told, as a receiver in production would. It records what
// came exactly as it came: the headers and the raw body text.

export type ReceivedDelivery = {
  id: string;
  timestamp: string;
  signature: string;
  /** The body as sent, byte for byte (UTF-8). */
  body: string;
  headers: IncomingMessage["headers"];
  /** Date.now() when the body had arrived. */
  receivedAt: number;
  /** For each of the receiver's secrets, in order: whether Webhook#verify accepted the delivery with it. */
  verifiedWith: boolean[];
  /** How many deliveries with this webhook-id came before this one. */
  repeat: number;
  /** The status the receiver answered, once it has (never, for a hang or a cut connection). */
  answered?: number;
};

export type ScriptedAnswer = {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this long. */
  delayMs?: number;
  /** Never answer (the connection stays open until the sender gives up or the receiver closes). */
  hang?: boolean;
};

export type WebhookReceiver = {
  url: string;
  port: number;
  /** The secrets every delivery is verified against (whsec_…); set them once the endpoint exists. */
  secrets: string[];
  /** Every delivery, in the order received. */
  received: ReceivedDelivery[];
  /** TCP connections accepted so far, whatever came over them. */
  connections(): number;
  /** How to answer each delivery; 200 to everything by default. */
  script(answer: (delivery: ReceivedDelivery) => ScriptedAnswer): void;
  /** Deliveries that some secret of the receiver's did not verify. */
  unverified(): ReceivedDelivery[];
  /** The webhook-ids the receiver has answered with a 2xx. */
  acknowledged(): Set<string>;
  /** Waits until `done` holds, polling; fails after `timeoutMs` with `what` in the message. */
  waitFor(what: string, done: () => boolean, timeoutMs?: number): Promise<void>;
  /** Stops listening and cuts every connection: the receiver is down. */
  close(): Promise<void>;
  /** Listens again, on the same port. */
  open(): Promise<void>;
};

export async function startWebhookReceiver(options: { port?: number } = {}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  const seen = new Map<string, number>();
  let connections = 0;
  let answer: (delivery: ReceivedDelivery) => ScriptedAnswer = () => ({ status: 200 });

  const receiver = {} as WebhookReceiver;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => void respond(request, response, Buffer.concat(chunks).toString("utf8")));
  });
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function respond(request: IncomingMessage, response: ServerResponse, body: string) {
    const header = (name: string) => String(request.headers[name] ?? "");
    const id = header("webhook-id");
    const delivery: ReceivedDelivery = {
      id,
      timestamp: header("webhook-timestamp"),
      signature: header("webhook-signature"),
      body,
      headers: request.headers,
      receivedAt: Date.now(),
      verifiedWith: receiver.secrets.map((secret) => verifies(secret, body, request.headers)),
      repeat: seen.get(id) ?? 0,
    };
    seen.set(id, delivery.repeat + 1);
    received.push(delivery);
    // As a receiver should: what does not verify is refused, and not acted upon.
    const scripted: ScriptedAnswer = delivery.verifiedWith.some(Boolean) ? answer(delivery) : { status: 400, body: "signature does not verify" };
    if (scripted.hang) return;
    if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if (response.destroyed) return;
    response.writeHead(scripted.status, { "content-type": "text/plain", ...scripted.headers }).end(scripted.body ?? "");
    delivery.answered = scripted.status;
  }

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : port);
      });
    });

  const port = await listen(options.port ?? 0);
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    secrets: [],
    received,
    connections: () => connections,
    script: (next: (delivery: ReceivedDelivery) => ScriptedAnswer) => {
      answer = next;
    },
    acknowledged: () => new Set(received.filter((delivery) => delivery.answered !== undefined && delivery.answered < 300).map((delivery) => delivery.id)),
    unverified: () => received.filter((delivery) => !delivery.verifiedWith.every(Boolean) || delivery.verifiedWith.length === 0),
    waitFor: async (what: string, done: () => boolean, timeoutMs = HANG_GUARD_MS) => {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`the receiver waited ${timeoutMs} ms for ${what}; it has ${received.length} deliveries`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    open: async () => {
      await listen(port);
    },
  });
}

function verifies(secret: string, body: string, headers: IncomingMessage["headers"]): boolean {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/**
 * A delivery's body read with the plant's int64 id kept exact (as a string):
 * never JSON.parse an id above 2^53. (The data is the database's JSON text,
 * spaced as each engine writes it.)
 */
export function parseDeliveryBody(body: string): { type: string; timestamp: string; data: { id: string; name: string; tag?: string } } {
  return JSON.parse(body.replace(/"id"\s*:\s*(-?\d+)/, '"id":"$1"')) as { type: string; timestamp: string; data: { id: string; name: string; tag?: string } };
}

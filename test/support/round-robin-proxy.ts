import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";

// A load balancer in miniature: one address in front of several app
// instances, handing each request to the next instance in turn, so one
// browser session is served by all of them. It records where each request went.
// Reads and writes take turns apart (a round for each method): how many pages
// and prefetches a browser loads between two writes varies, and with one
// round two writes could land on one instance every time.

export type ProxiedRequest = { instance: number; method: string; path: string; withSession: boolean };

export type RoundRobinProxy = { url: string; served: ProxiedRequest[]; close(): Promise<void> };

export async function startRoundRobinProxy(instances: string[]): Promise<RoundRobinProxy> {
  const served: ProxiedRequest[] = [];
  const next = new Map<string, number>();
  const server = createServer((incoming, outgoing) => {
    const method = incoming.method ?? "GET";
    const turn = next.get(method) ?? 0;
    next.set(method, turn + 1);
    const instance = turn % instances.length;
    const target = new URL(incoming.url ?? "/", instances[instance]);
    served.push({
      instance,
      method: incoming.method ?? "GET",
      path: target.pathname,
      withSession: /next-auth\.session-token=/.test(incoming.headers.cookie ?? ""),
    });
    // The Host header travels unchanged, as behind a real load balancer: the app sees the address the browser used.
    const upstream = forward(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(outgoing);
    });
    upstream.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

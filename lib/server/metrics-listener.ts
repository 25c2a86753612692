import { createServer, type Server } from "node:http";
import { listen } from "@/lib/server/listen";

/** What a metrics listener serves: the text of the metrics, and its content type. */
export type MetricsSource = { read(): Promise<string>; contentType: string };

/**
 * GET /metrics in Prometheus's text format, on a listener of its own
 * (loopback by default), so the public never reads it. A port that cannot be
 * opened stops start-up, as PORT's does: an operator who left metrics on
 * expects this instance to be scraped, and a second instance serving on
 * without them would let the first one's numbers stand for both. Served by
 * the one server process, or by the primary for all its workers together.
 */
export async function serveMetrics(address: { host: string; port: number }, source: MetricsSource): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("only GET /metrics is served here\n");
      return;
    }
    source
      .read()
      .then((text) => response.writeHead(200, { "content-type": source.contentType }).end(text))
      .catch(() => response.writeHead(500).end());
  });
  await listen(server, address, { port: "METRICS_PORT", host: "METRICS_HOST", off: true });
  return server;
}

import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import type { TrustProxy } from "@/lib/server/env";

// The client's address, decided once by the server (lib/server/http-server.ts)
// from the socket, or from X-Forwarded-For only as far as TRUST_PROXY names
// the proxies that wrote it, so a forged X-Forwarded-For changes nothing.
// The server replaces whatever a client sent under this header name.

export const CLIENT_ADDRESS_HEADER = "x-plant-store-client-address";

export function resolveClientAddress(request: IncomingMessage, trust: TrustProxy): string {
  return proxyaddr(request, trustFunction(trust));
}

function trustFunction(trust: TrustProxy): (address: string, hop: number) => boolean {
  if (typeof trust === "boolean") return () => trust;
  if (typeof trust === "number") return (_, hop) => hop < trust;
  return proxyaddr.compile(trust);
}

/** The client's address, as the server decided it; "unknown" under `next dev`, which runs without that server. */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}

import { lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { whyNotGloballyReachable } from "@/lib/webhooks/special-purpose-addresses";

// Where a webhook may be sent (issue 9). A receiver's URL is chosen by whoever
// manages endpoints, and the app then makes requests to it from inside the
// operator's network: without these rules, an endpoint could point it at the
// cloud's metadata service, a database's admin port or the app itself (SSRF).
// Only https:// URLs whose host resolves to globally reachable addresses
// (lib/webhooks/special-purpose-addresses.ts) are accepted, unless the
// operator allows http and private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS, for
// tests and closed networks). The same judgment is made again on the address
// each request actually connects to (targetLookup, and lib/webhooks/send-webhook.ts
// for a URL that names an address), so a name that resolves elsewhere later
// (DNS rebinding) gains nothing.
//
// The host judged is the one the WHATWG URL parser gives, which is the one
// node:http connects to: it has already turned every other spelling of an
// IPv4 address (0x7f.1, 2130706433, 0177.0.0.1, 127.1, full-width digits,
// percent-encoding, a trailing dot) into 127.0.0.1, and an IPv6 address into
// its shortest form in brackets.

/** Whether a webhook may go to this address (an IP address as the socket layer writes it). */
export function isPublicAddress(address: string): boolean {
  return whyNotGloballyReachable(address) === undefined;
}

/** The end of a refusal's sentence for `address`, or undefined when a webhook may go there. */
function refusalOf(address: string): string | undefined {
  const why = whyNotGloballyReachable(address);
  return why && `${address}, which ${why}; webhooks go to public addresses only`;
}

export class WebhookTargetError extends Error {
  override name = "WebhookTargetError";
}

/** An address a request was about to connect to, refused by the target rules; nothing was sent. */
export class RefusedAddressError extends Error {
  override name = "RefusedAddressError";
}

/** The host of a parsed URL as node:http connects to it: an IPv6 address without its brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Checks a webhook URL before it is saved; throws a WebhookTargetError saying
 * what is wrong. `resolve` answers a host name's addresses (the system's
 * resolver by default).
 */
export async function checkWebhookTarget(
  url: string,
  { allowPrivate, resolve = resolveAll }: { allowPrivate: boolean; resolve?: (host: string) => Promise<string[]> },
): Promise<void> {
  const parsed = new URL(url);
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol)) throw new WebhookTargetError("url must be an https:// URL");
  if (parsed.username || parsed.password) throw new WebhookTargetError("url must not carry a user name or password");
  const host = urlHost(parsed);
  const addresses = isIP(host) ? [host] : await resolve(host);
  if (addresses.length === 0) throw new WebhookTargetError(`url's host ${host} does not resolve to an address`);
  if (allowPrivate) return;
  for (const address of addresses) {
    const refusal = refusalOf(address);
    if (refusal) throw new WebhookTargetError(`url's host ${host} resolves to ${refusal}`);
  }
}

/** Why a request must not connect to `address`, or undefined when it may: for a URL whose host is an address, which no lookup sees. */
export function connectRefusal(address: string): RefusedAddressError | undefined {
  const refusal = refusalOf(address);
  return refusal === undefined ? undefined : new RefusedAddressError(`the endpoint's host resolves to ${refusal}`);
}

/**
 * A lookup for node:http's `lookup` option that fails with a RefusedAddressError
 * when a name resolves to any address a webhook may not go to, as the check
 * made when the endpoint was saved does; the socket then connects to nothing.
 */
export const targetLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    for (const { address } of addresses) {
      const refused = connectRefusal(address);
      if (refused) return callback(refused, "");
    }
    const [first] = addresses;
    if (options.all) return callback(null, addresses);
    if (!first) return callback(Object.assign(new Error(`${hostname} resolves to no address`), { code: "ENOTFOUND" }), "");
    callback(null, first.address, first.family);
  });
};

async function resolveAll(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}

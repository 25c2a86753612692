import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { whyNotGloballyReachable } from "@/lib/webhooks/special-purpose-addresses";

// Where a webhook may be sent (issue 9). A receiver's URL is chosen by whoever
// manages endpoints, and the app then makes requests to it from inside the
// operator's network: without these rules, an endpoint could point it at the
// cloud's metadata service, a database's admin port or the app itself (SSRF).
// Only https:// URLs whose host resolves to globally reachable addresses
// (lib/webhooks/special-purpose-addresses.ts) are accepted, unless the
// operator allows http and private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS, for
// tests and closed networks). The address rule is applied again to the
// address each request actually connects to (lib/webhooks/send-webhook.ts),
// so a name that resolves elsewhere later (DNS rebinding) gains nothing.
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

async function resolveAll(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}

import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

// Where a webhook may be sent (issue 9). A receiver's URL is chosen by whoever
// manages endpoints, and the app then makes requests to it from inside the
// operator's network: without these rules, an endpoint could point it at the
// cloud's metadata service, a database's admin port or the app itself (SSRF).
// Only https:// URLs whose host resolves to public unicast addresses are
// accepted, unless the operator allows http and private targets
// (WEBHOOK_ALLOW_PRIVATE_TARGETS, for tests and closed networks). The same
// address rule is applied again to the address each request actually connects
// to (lib/webhooks/send-webhook.ts), so a name that resolves elsewhere later
// (DNS rebinding) gains nothing.

/**
 * Whether an address is one a public webhook may reach: unicast in ipaddr.js's
 * terms, which leaves out loopback, private (RFC 1918), link-local (the cloud
 * metadata address 169.254.169.254 among them), unique-local (fc00::/7),
 * carrier-grade NAT, unspecified, multicast, broadcast and reserved ranges.
 * IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged as the IPv4 they carry.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

export class WebhookTargetError extends Error {
  override name = "WebhookTargetError";
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
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host);
  if (addresses.length === 0) throw new WebhookTargetError(`url's host ${host} does not resolve to an address`);
  if (allowPrivate) return;
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked !== undefined) {
    throw new WebhookTargetError(`url's host ${host} resolves to ${blocked}, a private, loopback or link-local address; webhooks go to public addresses only`);
  }
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}

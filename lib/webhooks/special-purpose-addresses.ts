import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// Which addresses a webhook may be sent to (issue 20): the IANA IPv4 and IPv6
// Special-Purpose Address Registries (RFC 6890, as RFC 8190 updated it), one
// row per block with the RFC that assigned it and whether webhooks may go
// there: the registry's "Globally Reachable", but for the anycast and
// identifier blocks below. An address is judged by the most specific block
// that holds it; an IPv4 address in none is public, an IPv6 address must lie
// in 2000::/3, the only space IANA allocates for global unicast (RFC 4291
// section 2.4, the IPv6 Address Space registry: everything else is reserved).
//
// Some IPv6 forms carry an IPv4 address (issue 20): whatever else is true of
// the form, the IPv4 it carries is judged by the IPv4 rows first, so
// ::127.0.0.1, 64:ff9b::127.0.0.1 or 2002:7f00:1:: is refused as 127.0.0.1.
// Two forms are then judged by that IPv4 alone, because a connection to one is
// a connection to the IPv4 it carries: IPv4-mapped (::ffff:0:0/96, which the
// kernel itself sends over IPv4) and the NAT64 well-known prefix
// (64:ff9b::/96, which a translator turns into the IPv4). The others are
// refused outright, whatever they carry:
// - IPv4-compatible (::/96): deprecated by RFC 4291 section 2.5.5.1, since no
//   transition mechanism uses it any more, and inside ::/8, reserved by the IETF.
// - 6to4 (2002::/16) and Teredo (2001::/32): the registry's Globally Reachable
//   is N/A for both; where one leads depends on tunnels and relays on the
//   sending host's network (RFC 7526 deprecated 6to4's anycast relays, and
//   Teredo's public servers are gone), not on the address alone.
// - NAT64 local use (64:ff9b:1::/48, RFC 8215): not globally reachable, and
//   where it holds the IPv4 depends on the prefix length the local network
//   chose (RFC 6052 section 2.2), so it cannot even be read reliably.
// Multicast (224.0.0.0/4, ff00::/8) is not in the special-purpose registries
// but cannot carry a TCP connection; it is refused with the RFC that sets it apart.

// Where the registry says True but webhooks still do not go. A service's
// anycast address is answered by its nearest instance, which may be the
// operator's own: PCP's is the network's NAT gateway (RFC 7723), and RFC 7534
// asks networks to run AS112 nodes locally. No receiver lives there.
const ANYCAST = false;
// ORCHIDv2 and DETs identify hosts and drones; they are not locators (RFC 7343,
// RFC 9374): no receiver is reached at one.
const IDENTIFIER = false;

type Carried = (address: ipaddr.IPv6) => ipaddr.IPv4[];

type Block = {
  /** The block, in CIDR notation. */
  block: string;
  /** Its name in the registry. */
  name: string;
  rfc: string;
  /** Whether a webhook may go there; "carried": as the IPv4 it carries decides. */
  reachable: boolean | "carried";
  /** The IPv4 addresses that an address of the block carries. */
  carries?: Carried;
};

/** The IPv4 address in bytes [from, from + 4) of an IPv6 address, each bit flipped when `flip` (Teredo's client). */
const ipv4At =
  (from: number, flip = false): Carried =>
  (address) =>
    [new ipaddr.IPv4(address.toByteArray().slice(from, from + 4).map((byte) => (flip ? byte ^ 0xff : byte)))];
const LAST_32_BITS = ipv4At(12);
// RFC 4380 section 4: bits 32-63 are the Teredo server; the last 32 bits, inverted, the client's mapped address.
const TEREDO: Carried = (address) => [...ipv4At(4)(address), ...ipv4At(12, true)(address)];

const IPV4_BLOCKS: readonly Block[] = [
  { block: "0.0.0.0/8", name: '"This network"', rfc: "RFC 791 section 3.2", reachable: false },
  { block: "0.0.0.0/32", name: '"This host on this network"', rfc: "RFC 1122 section 3.2.1.3", reachable: false },
  { block: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918", reachable: false },
  { block: "100.64.0.0/10", name: "Shared Address Space", rfc: "RFC 6598", reachable: false },
  { block: "127.0.0.0/8", name: "Loopback", rfc: "RFC 1122 section 3.2.1.3", reachable: false },
  { block: "169.254.0.0/16", name: "Link Local", rfc: "RFC 3927", reachable: false },
  { block: "172.16.0.0/12", name: "Private-Use", rfc: "RFC 1918", reachable: false },
  { block: "192.0.0.0/24", name: "IETF Protocol Assignments", rfc: "RFC 6890 section 2.1", reachable: false },
  { block: "192.0.0.0/29", name: "IPv4 Service Continuity Prefix", rfc: "RFC 7335", reachable: false },
  { block: "192.0.0.8/32", name: "IPv4 dummy address", rfc: "RFC 7600", reachable: false },
  { block: "192.0.0.9/32", name: "Port Control Protocol Anycast", rfc: "RFC 7723", reachable: ANYCAST },
  { block: "192.0.0.10/32", name: "Traversal Using Relays around NAT Anycast", rfc: "RFC 8155", reachable: ANYCAST },
  { block: "192.0.0.170/31", name: "NAT64/DNS64 Discovery", rfc: "RFC 8880", reachable: false },
  { block: "192.0.2.0/24", name: "Documentation (TEST-NET-1)", rfc: "RFC 5737", reachable: false },
  { block: "192.31.196.0/24", name: "AS112-v4", rfc: "RFC 7535", reachable: ANYCAST },
  { block: "192.52.193.0/24", name: "AMT", rfc: "RFC 7450", reachable: ANYCAST },
  // Terminated in 2015; nothing answers a webhook there.
  { block: "192.88.99.0/24", name: "Deprecated (6to4 Relay Anycast)", rfc: "RFC 7526", reachable: false },
  { block: "192.168.0.0/16", name: "Private-Use", rfc: "RFC 1918", reachable: false },
  { block: "192.175.48.0/24", name: "Direct Delegation AS112 Service", rfc: "RFC 7534", reachable: ANYCAST },
  { block: "198.18.0.0/15", name: "Benchmarking", rfc: "RFC 2544", reachable: false },
  { block: "198.51.100.0/24", name: "Documentation (TEST-NET-2)", rfc: "RFC 5737", reachable: false },
  { block: "203.0.113.0/24", name: "Documentation (TEST-NET-3)", rfc: "RFC 5737", reachable: false },
  { block: "224.0.0.0/4", name: "Multicast", rfc: "RFC 5771", reachable: false },
  { block: "240.0.0.0/4", name: "Reserved", rfc: "RFC 1112 section 4", reachable: false },
  { block: "255.255.255.255/32", name: "Limited Broadcast", rfc: "RFC 8190", reachable: false },
];

const IPV6_BLOCKS: readonly Block[] = [
  // Everything outside 2000::/3 (RFC 4291 section 2.4: the IPv6 Address Space registry reserves it).
  { block: "::/3", name: "Reserved by IETF", rfc: "RFC 4291", reachable: false },
  { block: "4000::/2", name: "Reserved by IETF", rfc: "RFC 4291", reachable: false },
  { block: "8000::/1", name: "Reserved by IETF", rfc: "RFC 4291", reachable: false },
  { block: "2000::/3", name: "Global Unicast", rfc: "RFC 4291", reachable: true },
  { block: "::/8", name: "Reserved by IETF", rfc: "RFC 4291", reachable: false },
  { block: "::/128", name: "Unspecified Address", rfc: "RFC 4291", reachable: false },
  { block: "::1/128", name: "Loopback Address", rfc: "RFC 4291", reachable: false },
  { block: "::/96", name: "IPv4-Compatible IPv6 Address (deprecated)", rfc: "RFC 4291 section 2.5.5.1", reachable: false, carries: LAST_32_BITS },
  { block: "::ffff:0:0/96", name: "IPv4-mapped Address", rfc: "RFC 4291", reachable: "carried", carries: LAST_32_BITS },
  { block: "64:ff9b::/96", name: "IPv4-IPv6 Translat.", rfc: "RFC 6052", reachable: "carried", carries: LAST_32_BITS },
  { block: "64:ff9b:1::/48", name: "IPv4-IPv6 Translat. (local use)", rfc: "RFC 8215", reachable: false },
  { block: "100::/64", name: "Discard-Only Address Block", rfc: "RFC 6666", reachable: false },
  { block: "100:0:0:1::/64", name: "Dummy IPv6 Prefix", rfc: "RFC 9780", reachable: false },
  { block: "2001::/23", name: "IETF Protocol Assignments", rfc: "RFC 2928", reachable: false },
  { block: "2001::/32", name: "TEREDO", rfc: "RFC 4380", reachable: false, carries: TEREDO },
  { block: "2001:1::1/128", name: "Port Control Protocol Anycast", rfc: "RFC 7723", reachable: ANYCAST },
  { block: "2001:1::2/128", name: "Traversal Using Relays around NAT Anycast", rfc: "RFC 8155", reachable: ANYCAST },
  { block: "2001:1::3/128", name: "DNS-SD Service Registration Protocol Anycast", rfc: "RFC 9665", reachable: ANYCAST },
  { block: "2001:2::/48", name: "Benchmarking", rfc: "RFC 5180", reachable: false },
  { block: "2001:3::/32", name: "AMT", rfc: "RFC 7450", reachable: ANYCAST },
  { block: "2001:4:112::/48", name: "AS112-v6", rfc: "RFC 7535", reachable: ANYCAST },
  { block: "2001:10::/28", name: "Deprecated (previously ORCHID)", rfc: "RFC 4843", reachable: false },
  { block: "2001:20::/28", name: "ORCHIDv2", rfc: "RFC 7343", reachable: IDENTIFIER },
  { block: "2001:30::/28", name: "Drone Remote ID Protocol Entity Tags (DETs) Prefix", rfc: "RFC 9374", reachable: IDENTIFIER },
  { block: "2001:db8::/32", name: "Documentation", rfc: "RFC 3849", reachable: false },
  { block: "2002::/16", name: "6to4", rfc: "RFC 3056", reachable: false, carries: ipv4At(2) },
  { block: "2620:4f:8000::/48", name: "Direct Delegation AS112 Service", rfc: "RFC 7534", reachable: ANYCAST },
  { block: "3fff::/20", name: "Documentation", rfc: "RFC 9637", reachable: false },
  { block: "5f00::/16", name: "Segment Routing (SRv6) SIDs", rfc: "RFC 9602", reachable: false },
  { block: "fc00::/7", name: "Unique-Local", rfc: "RFC 4193", reachable: false },
  { block: "fe80::/10", name: "Link-Local Unicast", rfc: "RFC 4291", reachable: false },
  { block: "fec0::/10", name: "Site-Local (deprecated)", rfc: "RFC 3879", reachable: false },
  { block: "ff00::/8", name: "Multicast", rfc: "RFC 4291", reachable: false },
];

type ParsedBlock = Block & { range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

const parse = (blocks: readonly Block[]): ParsedBlock[] =>
  // Most specific first, so the first block that holds an address is the one that decides.
  blocks.map((block) => ({ ...block, range: ipaddr.parseCIDR(block.block) })).sort((a, b) => b.range[1] - a.range[1]);
const BLOCKS = { ipv4: parse(IPV4_BLOCKS), ipv6: parse(IPV6_BLOCKS) };

function blockOf(address: ipaddr.IPv4 | ipaddr.IPv6): ParsedBlock | undefined {
  return BLOCKS[address.kind()].find((block) => address.match(block.range));
}

const described = (block: Block) => `${block.block} (${block.name}, ${block.rfc})`;

/**
 * Why a webhook must not go to this address, as the rest of a sentence
 * ("127.0.0.1 ..." + "is in 127.0.0.0/8 (Loopback, RFC 1122 section 3.2.1.3)"),
 * or undefined when it may. Only an address written as the socket layer takes
 * it (net.isIP) is judged; any other text is refused, never read leniently
 * ("0x7f.1" and "2130706433" are 127.0.0.1 to some parsers).
 */
export function whyNotGloballyReachable(text: string): string | undefined {
  if (isIP(text) === 0) return "is not an IP address";
  const address = ipaddr.parse(text);
  const block = blockOf(address);
  if (!block) return undefined;
  if (block.carries && address instanceof ipaddr.IPv6) {
    for (const carried of block.carries(address)) {
      const why = whyNotGloballyReachable(carried.toString());
      if (why) return `carries ${carried} (${block.name}, ${block.block}, ${block.rfc}), which ${why}`;
    }
  }
  return block.reachable === false ? `is in ${described(block)}` : undefined;
}

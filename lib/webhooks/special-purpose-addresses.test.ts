import { describe, expect, it } from "vitest";
import { whyNotGloballyReachable } from "@/lib/webhooks/special-purpose-addresses";
import { checkWebhookTarget } from "@/lib/webhooks/target-address";

// Issue 20, point 3: every special-purpose block of the IANA registries that
// is not globally reachable is refused, and every IPv6 form that carries an
// IPv4 address is judged by that address, each with the reason an owner reads
// when saving the endpoint. (The same judgment at connect time:
// send-webhook.test.ts and test/http/webhook-targets.test.ts.)

/** What saving an endpoint with this URL says, private targets not allowed. */
async function refusal(url: string): Promise<string> {
  try {
    await checkWebhookTarget(url, { allowPrivate: false, resolve: async () => [] });
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

const LOOPBACK = "127.0.0.0/8 (Loopback, RFC 1122 section 3.2.1.3)";
const refused = (host: string, address: string, why: string) => `url's host ${host} resolves to ${address}, which ${why}; webhooks go to public addresses only`;

describe("the IPv6 forms that carry an IPv4 address", () => {
  it.each([
    [
      "IPv4-compatible, of loopback",
      "https://[::127.0.0.1]/",
      "::7f00:1",
      `carries 127.0.0.1 (IPv4-Compatible IPv6 Address (deprecated), ::/96, RFC 4291 section 2.5.5.1), which is in ${LOOPBACK}`,
    ],
    // Deprecated: refused whatever it carries.
    ["IPv4-compatible, of a public address", "https://[::8.8.8.8]/", "::808:808", "is in ::/96 (IPv4-Compatible IPv6 Address (deprecated), RFC 4291 section 2.5.5.1)"],
    [
      "IPv4-mapped, of a private address",
      "https://[::ffff:10.1.2.3]/",
      "::ffff:a01:203",
      "carries 10.1.2.3 (IPv4-mapped Address, ::ffff:0:0/96, RFC 4291), which is in 10.0.0.0/8 (Private-Use, RFC 1918)",
    ],
    ["NAT64, of loopback", "https://[64:ff9b::127.0.0.1]/", "64:ff9b::7f00:1", `carries 127.0.0.1 (IPv4-IPv6 Translat., 64:ff9b::/96, RFC 6052), which is in ${LOOPBACK}`],
    [
      "NAT64, of the metadata service",
      "https://[64:ff9b::169.254.169.254]/",
      "64:ff9b::a9fe:a9fe",
      "carries 169.254.169.254 (IPv4-IPv6 Translat., 64:ff9b::/96, RFC 6052), which is in 169.254.0.0/16 (Link Local, RFC 3927)",
    ],
    // Local use: where the IPv4 sits depends on the local prefix length; refused outright.
    ["NAT64 local use", "https://[64:ff9b:1::808:808]/", "64:ff9b:1::808:808", "is in 64:ff9b:1::/48 (IPv4-IPv6 Translat. (local use), RFC 8215)"],
    ["6to4, of loopback", "https://[2002:7f00:1::1]/", "2002:7f00:1::1", `carries 127.0.0.1 (6to4, 2002::/16, RFC 3056), which is in ${LOOPBACK}`],
    ["6to4, of a public address", "https://[2002:808:808::1]/", "2002:808:808::1", "is in 2002::/16 (6to4, RFC 3056)"],
    // Teredo: the server in bits 32-63, the client's address inverted in the last 32 (~127.0.0.1 = 80ff:fffe).
    [
      "Teredo, with a loopback client",
      "https://[2001:0:808:808::80ff:fffe]/",
      "2001:0:808:808::80ff:fffe",
      `carries 127.0.0.1 (TEREDO, 2001::/32, RFC 4380), which is in ${LOOPBACK}`,
    ],
    [
      "Teredo, with a private server",
      "https://[2001:0:a00:1::f7f7:f7f7]/",
      "2001:0:a00:1::f7f7:f7f7",
      "carries 10.0.0.1 (TEREDO, 2001::/32, RFC 4380), which is in 10.0.0.0/8 (Private-Use, RFC 1918)",
    ],
    ["Teredo, of public addresses", "https://[2001:0:808:808::f7f7:f7f7]/", "2001:0:808:808::f7f7:f7f7", "is in 2001::/32 (TEREDO, RFC 4380)"],
  ])("refuses %s (%s)", async (_, url, address, why) => {
    expect(await refusal(url)).toBe(refused(address, address, why));
  });

  it.each(["https://[::ffff:8.8.8.8]/", "https://[64:ff9b::8.8.8.8]/", "https://[64:ff9b::93.184.215.14]/"])(
    "accepts %s: a connection to it is one to the public IPv4 it carries",
    async (url) => {
      expect(await refusal(url)).toBe("accepted");
    },
  );
});

describe("the special-purpose blocks that are not globally reachable", () => {
  it.each([
    ["0.1.2.3", 'is in 0.0.0.0/8 ("This network", RFC 791 section 3.2)'],
    ["100.127.255.254", "is in 100.64.0.0/10 (Shared Address Space, RFC 6598)"],
    ["192.0.0.200", "is in 192.0.0.0/24 (IETF Protocol Assignments, RFC 6890 section 2.1)"],
    ["192.0.0.1", "is in 192.0.0.0/29 (IPv4 Service Continuity Prefix, RFC 7335)"],
    ["192.0.0.8", "is in 192.0.0.8/32 (IPv4 dummy address, RFC 7600)"],
    ["192.0.0.171", "is in 192.0.0.170/31 (NAT64/DNS64 Discovery, RFC 8880)"],
    ["192.0.2.1", "is in 192.0.2.0/24 (Documentation (TEST-NET-1), RFC 5737)"],
    ["192.88.99.1", "is in 192.88.99.0/24 (Deprecated (6to4 Relay Anycast), RFC 7526)"],
    ["198.19.0.1", "is in 198.18.0.0/15 (Benchmarking, RFC 2544)"],
    ["198.51.100.1", "is in 198.51.100.0/24 (Documentation (TEST-NET-2), RFC 5737)"],
    ["203.0.113.1", "is in 203.0.113.0/24 (Documentation (TEST-NET-3), RFC 5737)"],
    ["224.0.0.1", "is in 224.0.0.0/4 (Multicast, RFC 5771)"],
    ["240.0.0.1", "is in 240.0.0.0/4 (Reserved, RFC 1112 section 4)"],
    ["255.255.255.255", "is in 255.255.255.255/32 (Limited Broadcast, RFC 8190)"],
    ["1::1", "is in ::/8 (Reserved by IETF, RFC 4291)"],
    ["100::1", "is in 100::/64 (Discard-Only Address Block, RFC 6666)"],
    ["100:0:0:1::1", "is in 100:0:0:1::/64 (Dummy IPv6 Prefix, RFC 9780)"],
    ["2001:100::1", "is in 2001::/23 (IETF Protocol Assignments, RFC 2928)"],
    ["2001:2::1", "is in 2001:2::/48 (Benchmarking, RFC 5180)"],
    ["2001:10::1", "is in 2001:10::/28 (Deprecated (previously ORCHID), RFC 4843)"],
    ["2001:db8::1", "is in 2001:db8::/32 (Documentation, RFC 3849)"],
    ["3fff::1", "is in 3fff::/20 (Documentation, RFC 9637)"],
    ["5f00::1", "is in 5f00::/16 (Segment Routing (SRv6) SIDs, RFC 9602)"],
    ["fd12:3456::1", "is in fc00::/7 (Unique-Local, RFC 4193)"],
    ["fec0::1", "is in fec0::/10 (Site-Local (deprecated), RFC 3879)"],
    ["ff02::1", "is in ff00::/8 (Multicast, RFC 4291)"],
    // Outside 2000::/3, the only global unicast space.
    ["4000::1", "is in 4000::/2 (Reserved by IETF, RFC 4291)"],
    ["e000::1", "is in 8000::/1 (Reserved by IETF, RFC 4291)"],
    // Globally reachable in the registry, but anycast (the nearest instance may be the operator's own) or identifiers.
    ["192.0.0.9", "is in 192.0.0.9/32 (Port Control Protocol Anycast, RFC 7723)"],
    ["192.175.48.1", "is in 192.175.48.0/24 (Direct Delegation AS112 Service, RFC 7534)"],
    ["2001:1::1", "is in 2001:1::1/128 (Port Control Protocol Anycast, RFC 7723)"],
    ["2001:4:112::1", "is in 2001:4:112::/48 (AS112-v6, RFC 7535)"],
    ["2001:20::1", "is in 2001:20::/28 (ORCHIDv2, RFC 7343)"],
  ])("refuses %s, which %s", async (address, why) => {
    const host = address.includes(":") ? `[${address}]` : address;
    expect(await refusal(`https://${host}/hooks`)).toBe(refused(address, address, why));
  });

  it.each(["8.8.8.8", "93.184.215.14", "2606:4700::1", "2a00:1450:4001::1"])("accepts %s, global unicast", (address) => {
    expect(whyNotGloballyReachable(address)).toBeUndefined();
  });
});

describe("the other spellings of an address in a URL", () => {
  // The WHATWG URL parser turns each into 127.0.0.1, the address node:http then connects to: that is the one judged.
  it.each([
    ["hexadecimal, short", "https://0x7f.1/"],
    ["one number", "https://2130706433/"],
    ["one hexadecimal number", "https://0x7f000001/"],
    ["octal", "https://0177.0.0.1/"],
    ["short", "https://127.1/"],
    ["a trailing dot", "https://127.0.0.1./"],
    ["percent-encoded", "https://%31%32%37.0.0.1/"],
    ["full-width digits", "https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/"],
  ])("judges %s (%s) as 127.0.0.1", async (_, url) => {
    expect(new URL(url).hostname).toBe("127.0.0.1");
    expect(await refusal(url)).toBe(refused("127.0.0.1", "127.0.0.1", `is in ${LOOPBACK}`));
  });

  it.each([
    ["IPv4-compatible", "https://[0:0:0:0:0:0:7f00:1]/", "::7f00:1"],
    ["IPv4-mapped, in hexadecimal and capitals", "https://[::FFFF:7F00:1]/", "::ffff:7f00:1"],
  ])("judges an IPv6 address (%s) in its shortest form", async (_, url, address) => {
    expect(await refusal(url)).toMatch(new RegExp(`^url's host ${address} resolves to ${address}, which carries 127\\.0\\.0\\.1 `));
  });
});

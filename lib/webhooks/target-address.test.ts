import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { checkWebhookTarget, isPublicAddress, WebhookTargetError } from "@/lib/webhooks/target-address";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// Where a webhook may go (SSRF): every address class a request from inside the
// operator's network must not reach is refused when an endpoint is saved.
// (At call time, the connected address is checked again: send-webhook.test.ts
// and test/http/webhook-targets.test.ts.)

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "false");
setUpTestDatabase();

const LOOPBACK = "is in 127.0.0.0/8 (Loopback, RFC 1122 section 3.2.1.3)";

// [what, url, the address refused, why]
const FORBIDDEN = [
  ["loopback", "https://127.0.0.1/hooks", "127.0.0.1", LOOPBACK],
  ["loopback, elsewhere in 127/8", "https://127.8.9.10/hooks", "127.8.9.10", LOOPBACK],
  ["private 10/8", "https://10.0.0.1/hooks", "10.0.0.1", "is in 10.0.0.0/8 (Private-Use, RFC 1918)"],
  ["private 172.16/12", "https://172.16.0.1/hooks", "172.16.0.1", "is in 172.16.0.0/12 (Private-Use, RFC 1918)"],
  ["private 192.168/16", "https://192.168.1.1/hooks", "192.168.1.1", "is in 192.168.0.0/16 (Private-Use, RFC 1918)"],
  ["link-local: the cloud metadata service", "https://169.254.169.254/latest/meta-data/", "169.254.169.254", "is in 169.254.0.0/16 (Link Local, RFC 3927)"],
  ["carrier-grade NAT", "https://100.64.0.1/hooks", "100.64.0.1", "is in 100.64.0.0/10 (Shared Address Space, RFC 6598)"],
  ["unspecified", "https://0.0.0.0/hooks", "0.0.0.0", 'is in 0.0.0.0/32 ("This host on this network", RFC 1122 section 3.2.1.3)'],
  ["IPv6 loopback", "https://[::1]/hooks", "::1", "is in ::1/128 (Loopback Address, RFC 4291)"],
  ["IPv6 unique-local", "https://[fc00::1]/hooks", "fc00::1", "is in fc00::/7 (Unique-Local, RFC 4193)"],
  ["IPv6 link-local", "https://[fe80::1]/hooks", "fe80::1", "is in fe80::/10 (Link-Local Unicast, RFC 4291)"],
  ["IPv6 unspecified", "https://[::]/hooks", "::", "is in ::/128 (Unspecified Address, RFC 4291)"],
  [
    "IPv4-mapped loopback",
    "https://[::ffff:127.0.0.1]/hooks",
    "::ffff:7f00:1",
    `carries 127.0.0.1 (IPv4-mapped Address, ::ffff:0:0/96, RFC 4291), which ${LOOPBACK}`,
  ],
  [
    "IPv4-mapped metadata service",
    "https://[::ffff:169.254.169.254]/hooks",
    "::ffff:a9fe:a9fe",
    "carries 169.254.169.254 (IPv4-mapped Address, ::ffff:0:0/96, RFC 4291), which is in 169.254.0.0/16 (Link Local, RFC 3927)",
  ],
] as const;

describe("createWebhookEndpoint, without private targets allowed", () => {
  it.each(FORBIDDEN)("refuses %s (%s)", async (_, url, address, why) => {
    const refusal = createWebhookEndpoint({ url, events: ["plant.created"], description: "" }, TEST_BY);
    await expect(refusal).rejects.toThrow(WebhookTargetError);
    await expect(refusal).rejects.toThrow(`resolves to ${address}, which ${why}; webhooks go to public addresses only`);
  });

  it("refuses a name that resolves to loopback", async () => {
    await expect(createWebhookEndpoint({ url: "https://localhost:8443/hooks", events: ["plant.created"], description: "" }, TEST_BY)).rejects.toThrow(
      /url's host localhost resolves to (127\.0\.0\.1, which is in 127\.0\.0\.0\/8 \(Loopback|::1, which is in ::1\/128 \(Loopback Address)/,
    );
  });

  it.each(["http://203.0.113.10/hooks", "http://example.com/hooks"])("refuses an http:// URL (%s)", async (url) => {
    await expect(createWebhookEndpoint({ url, events: ["plant.created"], description: "" }, TEST_BY)).rejects.toThrow("url must be an https:// URL");
  });

  it("refuses a URL carrying credentials", async () => {
    await expect(createWebhookEndpoint({ url: "https://user:pass@93.184.215.14/hooks", events: ["plant.created"], description: "" }, TEST_BY)).rejects.toThrow(
      "url must not carry a user name or password",
    );
  });

  it("saves nothing it refuses, and saves a public https target", async () => {
    expect(await db().webhookEndpoint.count()).toBe(0);
    const { endpoint } = await createWebhookEndpoint({ url: "https://93.184.215.14/hooks", events: ["plant.created"], description: "" }, TEST_BY);
    expect(endpoint).toMatchObject({ url: "https://93.184.215.14/hooks", enabled: true });
    expect(await db().webhookEndpoint.count()).toBe(1);
  });
});

describe("checkWebhookTarget", () => {
  it("refuses a name when any of its addresses is not public", async () => {
    const resolve = async () => ["93.184.215.14", "10.1.2.3"];
    await expect(checkWebhookTarget("https://hooks.example/in", { allowPrivate: false, resolve })).rejects.toThrow("resolves to 10.1.2.3");
  });

  it("refuses a name that resolves to nothing", async () => {
    await expect(checkWebhookTarget("https://nowhere.example/in", { allowPrivate: false, resolve: async () => [] })).rejects.toThrow("does not resolve to an address");
  });

  it("allows private targets and http only when told", async () => {
    await expect(checkWebhookTarget("http://127.0.0.1:9/in", { allowPrivate: true })).resolves.toBeUndefined();
    await expect(checkWebhookTarget("https://hooks.example/in", { allowPrivate: false, resolve: async () => ["2606:4700::1"] })).resolves.toBeUndefined();
  });
});

describe("isPublicAddress", () => {
  it.each(FORBIDDEN.map(([, , address]) => address))("says %s is not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::1", "::ffff:8.8.8.8"])("says %s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("says a name is not an address", () => {
    expect(isPublicAddress("example.com")).toBe(false);
  });

  // Only the socket layer's own spelling is an address: lenient parsers read these as 127.0.0.1 or 8.8.8.8.
  it.each(["2130706433", "0x7f.1", "0x8.8.8.8", "127.1", "[::1]"])("says %s is not an address, hence not public", (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

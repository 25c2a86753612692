import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { generateEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { eventBody } from "@/lib/json/event-body";
import { sendWebhook, USER_AGENT, type WebhookMessage } from "@/lib/webhooks/send-webhook";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";

// One attempt, against a real receiver on 127.0.0.1 that verifies every
// delivery with the standardwebhooks library.

let receiver: WebhookReceiver;
const secret = generateEndpointSecret();
const previous = generateEndpointSecret();
const body = eventBody({ type: "plant.created", createdAt: new Date("2026-11-24T10:11:12.345Z"), data: '{"id":9223372036854775807,"name":"Fern ✿"}' });
// The attempt's own limit, far beyond what a loaded machine needs, except where a test is about it.
const open = { timeoutMs: HANG_GUARD_MS, allowPrivateTargets: true };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.secrets = [secret];
  receiver.script(() => ({ status: 200 }));
});

function message(overrides: Partial<WebhookMessage> = {}): WebhookMessage {
  return { url: receiver.url, eventId: "msg_0123456789abcdef0123456789abcdef", body, secrets: [secret], ...overrides };
}

it("writes the body as text around the stored data, ids exact", () => {
  expect(body).toBe('{"type":"plant.created","timestamp":"2026-11-24T10:11:12.345Z","data":{"id":9223372036854775807,"name":"Fern ✿"}}');
});

it("sends a Standard Webhooks request that verifies, signed with every secret given", async () => {
  receiver.secrets = [secret, previous];
  const now = Date.now();
  const outcome = await sendWebhook(message({ secrets: [secret, previous] }), { ...open, now });
  expect(outcome).toMatchObject({ status: 200 });
  expect(outcome.error).toBeUndefined();
  const [delivery] = receiver.received;
  expect(delivery).toMatchObject({ id: "msg_0123456789abcdef0123456789abcdef", body, verifiedWith: [true, true] });
  expect(delivery!.signature).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
  expect(Number(delivery!.timestamp)).toBe(Math.floor(now / 1000));
  expect(delivery!.headers).toMatchObject({ "content-type": "application/json", "user-agent": USER_AGENT, "content-length": String(Buffer.byteLength(body)) });
});

it("reports a failing status with the start of the answer, and only reads a few KB of it", async () => {
  receiver.script(() => ({ status: 500, body: `database\u0000down ${"x".repeat(1_000_000)}` }));
  const outcome = await sendWebhook(message(), open);
  expect(outcome.status).toBe(500);
  expect(outcome.error).toMatch(/^the endpoint answered 500: database down x+$/);
  expect(outcome.error!.length).toBeLessThan(260);
});

it("reads Retry-After from a refusal", async () => {
  receiver.script(() => ({ status: 503, headers: { "retry-after": "7" } }));
  expect(await sendWebhook(message(), open)).toMatchObject({ status: 503, retryAfterMs: 7_000, error: "the endpoint answered 503" });
});

it("does not follow a redirect", async () => {
  receiver.script(() => ({ status: 307, headers: { location: "http://169.254.169.254/latest/meta-data/" } }));
  const outcome = await sendWebhook(message(), open);
  expect(outcome).toMatchObject({ status: 307, error: expect.stringContaining("redirects are not followed") });
  expect(receiver.received).toHaveLength(1);
});

it("gives up on a receiver that does not answer within the time limit", async () => {
  receiver.script(() => ({ status: 200, hang: true }));
  const outcome = await sendWebhook(message(), { ...open, timeoutMs: 300 });
  expect(outcome).toMatchObject({ error: "no answer within 300 ms" });
  expect(outcome.status).toBeUndefined();
  expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
});

it("stops when aborted", async () => {
  receiver.script(() => ({ status: 200, hang: true }));
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  expect(await sendWebhook(message(), { ...open, signal: controller.signal })).toMatchObject({ error: expect.stringMatching(/^aborted/) });
});

it("reports an unreachable receiver", async () => {
  const outcome = await sendWebhook(message({ url: "http://127.0.0.1:9/hooks" }), open);
  expect(outcome.error).toMatch(/^the request failed: ECONNREFUSED/);
});

const LOOPBACK = /which (is in 127\.0\.0\.0\/8|carries 127\.0\.0\.1 .*, which is in 127\.0\.0\.0\/8) \(Loopback, RFC 1122 section 3\.2\.1\.3\); webhooks go to public addresses only$/;
const refusedAs = (address: string, why: RegExp = LOOPBACK) => new RegExp(`^refused: the endpoint's host resolves to ${address.replace(/[.]/g, "\\.")}, ${why.source}`);

it.each([
  ["an http:// URL", (port: number) => `http://127.0.0.1:${port}/webhooks`, /^refused: the endpoint's URL must be an https:\/\/ URL$/],
  ["a loopback address", (port: number) => `https://127.0.0.1:${port}/webhooks`, refusedAs("127.0.0.1")],
  ["a name that resolves to loopback", (port: number) => `https://localhost:${port}/webhooks`, /^refused: the endpoint's host resolves to (127\.0\.0\.1|::1), which is in (127\.0\.0\.0\/8 \(Loopback|::1\/128 \(Loopback Address)/],
  ["an IPv4-mapped loopback address", (port: number) => `https://[::ffff:127.0.0.1]:${port}/webhooks`, refusedAs("::ffff:7f00:1")],
  ["the IPv6 loopback address", (port: number) => `https://[::1]:${port}/webhooks`, refusedAs("::1", /which is in ::1\/128 \(Loopback Address, RFC 4291\)/)],
  // Issue 20: the other IPv6 forms that carry 127.0.0.1, judged as it.
  ["an IPv4-compatible loopback address", (port: number) => `https://[::127.0.0.1]:${port}/webhooks`, refusedAs("::7f00:1")],
  ["a NAT64 loopback address", (port: number) => `https://[64:ff9b::127.0.0.1]:${port}/webhooks`, refusedAs("64:ff9b::7f00:1")],
  ["a 6to4 loopback address", (port: number) => `https://[2002:7f00:1::1]:${port}/webhooks`, refusedAs("2002:7f00:1::1")],
  ["a Teredo address with a loopback client", (port: number) => `https://[2001:0:808:808::80ff:fffe]:${port}/webhooks`, refusedAs("2001:0:808:808::80ff:fffe")],
  // Other spellings of 127.0.0.1: the one connected to is the one judged.
  ["127.0.0.1 in hexadecimal", (port: number) => `https://0x7f.1:${port}/webhooks`, refusedAs("127.0.0.1")],
  ["127.0.0.1 as one number", (port: number) => `https://2130706433:${port}/webhooks`, refusedAs("127.0.0.1")],
])("without private targets allowed, refuses %s and connects to nothing", async (_, url, error) => {
  const before = receiver.connections();
  const outcome = await sendWebhook(message({ url: url(receiver.port) }), { timeoutMs: HANG_GUARD_MS, allowPrivateTargets: false });
  expect(outcome).toMatchObject({ refused: true, error: expect.stringMatching(error) });
  expect(outcome.status).toBeUndefined();
  expect(receiver.connections()).toBe(before);
});

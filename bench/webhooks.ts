// npm run bench:webhooks: how long a plant event takes from its commit to the
// receiver. The built app on a fresh database of each engine, one webhook
// endpoint for plant.created (a receiver on loopback, in this process, that
// verifies every delivery with the standardwebhooks library and answers 204),
// then authenticated POST /plants with unique ids: first at a steady rate,
// then from 50 connections as fast as the app answers. Latency is the
// receiver's clock when a delivery arrives minus the event's timestamp, which
// the database writes in the plant's own transaction, just before the commit.
// Prints p50, p99 and the maximum per phase; exits 1 if a plant's event never
// arrives, arrives twice answered 2xx, or fails to verify.
//   BENCH_DATABASES    engines, comma-separated (default sqlite,postgresql)
//   BENCH_RATE         plants a second in the steady phase (default 100)
//   BENCH_SECONDS      length of each phase (default 10)
import { existsSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { addWebhookEndpoint } from "@/test/support/webhook-endpoints";
import { parseDeliveryBody, startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",") as DatabaseProvider[];
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

let nextId = 1_000_000n;

type Phase = { name: string; sent: number; latencies: number[] };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function show(engine: string, phase: Phase, seconds: number): string {
  const sorted = [...phase.latencies].sort((a, b) => a - b);
  const figures = `p50 ${percentile(sorted, 50).toFixed(0).padStart(4)} ms   p99 ${percentile(sorted, 99).toFixed(0).padStart(5)} ms   max ${(sorted.at(-1) ?? Number.NaN).toFixed(0).padStart(5)} ms`;
  return `  ${engine.padEnd(11)} ${phase.name.padEnd(28)} ${String(phase.sent).padStart(6)} plants (${(phase.sent / seconds).toFixed(0)}/s)   ${figures}`;
}

/** POSTs plants at `rate` a second for `seconds` (or, without a rate, from CONNECTIONS connections as fast as answered); answers how many were stored. */
async function post(url: string, headers: Record<string, string>, seconds: number, rate?: number): Promise<number> {
  const result = await autocannon({
    url,
    connections: rate === undefined ? CONNECTIONS : Math.min(CONNECTIONS, Math.max(1, Math.ceil(rate / 50))),
    duration: seconds,
    ...(rate !== undefined && { overallRate: rate }),
    requests: [
      {
        method: "POST",
        path: "/plants",
        headers: { ...headers, "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: `{"id":${nextId++},"name":"Announced fern"}` }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx + result.errors} POST /plants failed`);
  return result["2xx"];
}

/** Waits until the receiver has acknowledged `expected` more events than `before`; answers the latency of each delivery from index `from` on. */
async function collect(receiver: WebhookReceiver, { from, before }: { from: number; before: number }, expected: number): Promise<number[]> {
  await receiver.waitFor(`${expected} deliveries`, () => receiver.acknowledged().size >= before + expected, 120_000);
  return receiver.received
    .slice(from)
    .filter((delivery) => delivery.repeat === 0)
    .map((delivery) => delivery.receivedAt - Date.parse(parseDeliveryBody(delivery.body).timestamp));
}

async function measure(engine: DatabaseProvider): Promise<Phase[]> {
  const receiver = await startWebhookReceiver();
  receiver.script(() => ({ status: 204 }));
  const { app, headers } = await startBenchApp(engine, { stored: 0, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
  try {
    const endpoint = await addWebhookEndpoint(app.database, { url: receiver.url, events: ["plant.created"] });
    receiver.secrets = [endpoint.secret];
    // A warm-up, its deliveries awaited and left out.
    const warm = await post(app.url, headers, 2, RATE);
    await collect(receiver, { from: 0, before: 0 }, warm);
    const phases: Phase[] = [];
    for (const [name, rate] of [[`steady, ${RATE} plants/s`, RATE], [`full load, ${CONNECTIONS} connections`, undefined]] as const) {
      const mark = { from: receiver.received.length, before: receiver.acknowledged().size };
      const sent = await post(app.url, headers, SECONDS, rate);
      phases.push({ name, sent, latencies: await collect(receiver, mark, sent) });
    }
    const twice = receiver.received.filter((delivery) => delivery.repeat > 0 && delivery.answered === 204).length;
    if (receiver.unverified().length > 0 || twice > 0) throw new Error(`${receiver.unverified().length} deliveries did not verify, ${twice} came twice`);
    return phases;
  } finally {
    await stopBenchApp(app);
    await receiver.close();
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  console.log(`delivery latency, event committed to receiver called; phases of ${SECONDS} s`);
  for (const engine of ENGINES) {
    for (const phase of await measure(engine)) console.log(show(engine, phase, SECONDS));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

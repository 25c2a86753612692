// npm run bench:memory: does the server's memory settle under load, or grow?
// One built app on a fresh database with 500 plants, mixed load (create, list
// a page, read one, with 50 connections) for BENCH_MEMORY_SECONDS (default 300), and every
// 30 s the server's own figures from its metrics listener: resident memory,
// V8 heap used and reserved, and memory held outside the heap. Ends with the
// growth of each between the first and the second half of the run: a leak
// keeps growing, a heap that has found its size does not.
//   BENCH_DATABASES  engine to measure (default sqlite; postgresql also works)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { freePort } from "@/test/support/app-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 300);
const SAMPLE_SECONDS = 30;
const CONNECTIONS = 50;
const ENGINE = (process.env.BENCH_DATABASES ?? "sqlite") as DatabaseProvider;

type Sample = { second: number; rss: number; heapUsed: number; heapTotal: number; external: number; anon: number; file: number; requests: number };

const FIGURES = {
  rss: "plant_store_process_resident_memory_bytes",
  heapUsed: "plant_store_nodejs_heap_size_used_bytes",
  heapTotal: "plant_store_nodejs_heap_size_total_bytes",
  external: "plant_store_nodejs_external_memory_bytes",
} as const;

async function readFigures(metricsUrl: string): Promise<Record<keyof typeof FIGURES, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
  return { rss: value(FIGURES.rss), heapUsed: value(FIGURES.heapUsed), heapTotal: value(FIGURES.heapTotal), external: value(FIGURES.external) };
}

/**
 * Resident memory by kind, from Linux's /proc: anonymous memory (the heaps,
 * V8's and malloc's) against file pages mapped in (the program, and SQLite's
 * shared-memory WAL index, which grows with the WAL, not with a leak).
 */
function residentKinds(pid: number | undefined): { anon: number; file: number } {
  const status = pid === undefined || !existsSync(`/proc/${pid}/status`) ? "" : readFileSync(`/proc/${pid}/status`, "utf8");
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { anon: kB("RssAnon"), file: kB("RssFile") + kB("RssShmem") };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0).padStart(4)} MB`;

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  const metricsPort = await freePort();
  const STORED = 500;
  const { app, headers } = await startBenchApp(ENGINE, { stored: STORED, env: { METRICS_PORT: String(metricsPort) } });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  try {
    let nextId = 1_000_000n;
    let readId = 0;
    const requests: autocannon.Request[] = [
      {
        method: "POST",
        path: "/plants",
        headers: { ...headers, "content-type": "application/json" },
        setupRequest: (each) => ({ ...each, body: `{"id":${nextId++},"name":"Memory fern","tag":"bench"}` }),
      },
      { method: "GET", path: "/plants?limit=20", headers },
      { method: "GET", headers, setupRequest: (each) => ({ ...each, path: `/plants/${(readId++ % STORED) + 1}` }) },
    ];
    console.log(`${ENGINE}: mixed load with ${CONNECTIONS} connections for ${SECONDS} s, sampled every ${SAMPLE_SECONDS} s`);
    console.log("  second        rss   heap used  heap reserved  external  rss anon  rss file   requests");
    const samples: Sample[] = [];
    const show = (sample: Sample) =>
      console.log(`  ${String(sample.second).padStart(6)}  ${mb(sample.rss)}  ${mb(sample.heapUsed)}     ${mb(sample.heapTotal)}   ${mb(sample.external)}   ${mb(sample.anon)}   ${mb(sample.file)}   ${String(sample.requests).padStart(8)}`);
    const idle = { second: 0, requests: 0, ...(await readFigures(metricsUrl)), ...residentKinds(app.pid()) };
    show(idle);
    let failed = 0;
    for (let second = SAMPLE_SECONDS; second <= SECONDS; second += SAMPLE_SECONDS) {
      const result = await autocannon({ url: app.url, connections: CONNECTIONS, duration: SAMPLE_SECONDS, requests });
      failed += result.non2xx + result.errors;
      const sample = { second, requests: result.requests.total, ...(await readFigures(metricsUrl)), ...residentKinds(app.pid()) };
      samples.push(sample);
      show(sample);
    }
    const half = Math.floor(samples.length / 2);
    const growth = (figure: Exclude<keyof Sample, "second" | "requests">) => {
      const average = (list: Sample[]) => list.reduce((sum, sample) => sum + sample[figure], 0) / list.length;
      return mb(average(samples.slice(half)) - average(samples.slice(0, half)));
    };
    if (samples.length >= 2) {
      console.log(`growth, second half's average over the first's: rss ${growth("rss")} (anon ${growth("anon")}, file ${growth("file")}), heap used ${growth("heapUsed")}, external ${growth("external")}`);
      console.log(`peak rss ${mb(Math.max(...samples.map((sample) => sample.rss)))}`);
    }
    if (failed > 0) {
      console.error(`${failed} requests failed`);
      process.exitCode = 1;
    }
  } finally {
    await stopBenchApp(app);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { createPlant } from "@/lib/plants/plant-queries";
import { disconnectDatabase } from "@/lib/db/client";
import type { Attribution } from "@/lib/activity/actor";

// One writer of BENCH_SCALING=writers (bench/writers.ts): a process that
// stores plants through the app's own create path (createPlant: its group
// commit, activity record, change feed and webhook events, on the database
// the environment names), with no HTTP before it. Told "go" by its parent, it
// keeps WRITER_IN_FLIGHT creates going for WRITER_SECONDS, then answers how
// many were stored and each create's time, in ms.

const FIRST_ID = BigInt(process.env.WRITER_FIRST_ID ?? "1");
const SECONDS = Number(process.env.WRITER_SECONDS ?? 5);
const IN_FLIGHT = Number(process.env.WRITER_IN_FLIGHT ?? 8);
const BY: Attribution = { actor: { kind: "cli", osUser: "bench" }, origin: null };

export type WriterReport = { stored: number; latencies: number[] };

async function write(): Promise<WriterReport> {
  let next = FIRST_ID;
  let stored = 0;
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const created = await createPlant({ id: next++, name: "Bench fern" }, BY);
      if (created.status !== "stored") throw new Error(`plant ${created.plant.id} was ${created.status}`);
      latencies.push(performance.now() - started);
      stored++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
  return { stored, latencies };
}

async function main(): Promise<void> {
  // A first create opens the database (its connection, its pragmas) before the parent starts the clock.
  await createPlant({ id: FIRST_ID - 1n, name: "Bench fern" }, BY);
  process.once("message", async () => {
    const report = await write();
    await disconnectDatabase();
    process.send!(report, () => process.exit(0));
  });
  process.send!("ready");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

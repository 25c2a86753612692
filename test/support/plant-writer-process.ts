import { createInterface } from "node:readline";
import { disconnectDatabase } from "@/lib/db/client";
import { databaseOutage } from "@/lib/db/database-outage";
import { createPlant } from "@/lib/plants/plant-queries";
import { metrics } from "@/lib/server/metrics";
import { groupCommitBatches } from "@/test/support/group-commit-batches";
import { TEST_BY } from "@/test/support/test-attribution";

// One of several processes writing to one database, as a cluster worker does:
// `node --import tsx test/support/plant-writer-process.ts <first id> <count>
// <in flight>`, with the app's environment (DATA_DIR, DATABASE_URL). Once
// connected, and a plant "Warm-up" stored at first-1, it says "ready"; on
// "go" it creates plants first..first+count-1
// through the app's write path (createPlant, its group commit), `in flight` at
// a time, as requests arriving together would; then it answers one line,
// "result <json>" (WriterResult), and exits.

export type WriterResult = {
  /** Ids whose create was acknowledged (resolved). */
  stored: string[];
  /** Each failed create, as its outage kind (busy, lost...) or its message. */
  failures: string[];
  /** The group commit's statements and the plants they wrote (plant_store_group_commit_batch_size). */
  batches: { count: number; plants: number };
};

const [first = "1", count = "100", inFlight = "50"] = process.argv.slice(2);

async function createAll(): Promise<WriterResult> {
  const ids = Array.from({ length: Number(count) }, (_, index) => BigInt(first) + BigInt(index));
  const stored: string[] = [];
  const failures: string[] = [];
  const next = ids.values();
  const lane = async () => {
    for (let id = next.next(); !id.done; id = next.next()) {
      try {
        await createPlant({ id: id.value, name: `Writer ${process.pid}` }, TEST_BY);
        stored.push(String(id.value));
      } catch (error) {
        failures.push(databaseOutage(error) ?? String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Number(inFlight) }, lane));
  return { stored, failures, batches: await groupCommitBatches() };
}

async function main(): Promise<void> {
  // Connected, and the create's queries compiled (work of the first create only), before saying ready:
  // "go" starts writing at once, and what is measured from there is writing alone.
  await createPlant({ id: BigInt(first) - 1n, name: "Warm-up" }, TEST_BY);
  metrics().groupCommitBatch.reset();
  process.stdout.write("ready\n");
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line !== "go") continue;
    const result = await createAll();
    process.stdout.write(`result ${JSON.stringify(result)}\n`);
    break;
  }
  lines.close();
  await disconnectDatabase();
}

// tsx runs this file as CommonJS (the package is not "type": "module"): no top-level await.
void main();

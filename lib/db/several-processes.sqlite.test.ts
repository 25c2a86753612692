import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { databaseOutage } from "@/lib/db/database-outage";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sqlite";
import { createPlant } from "@/lib/plants/plant-queries";
import { appEnv } from "@/test/support/app-env";
import type { WriterResult } from "@/test/support/plant-writer-process";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";
import { lineReader } from "@/test/support/child-lines";

// Several processes on one SQLite file (issue 25), as cluster workers and the
// CLIs are: real processes, each with its own connection. Writes wait for
// another process's write lock instead of failing, a transaction that read
// before another process committed still writes, the waiting leaves the
// event loop free, and a process's creates still share commits.

const database = setUpTestDatabase();
const file = () => (database.config.provider === "sqlite" ? database.config.path : "");

const DRIVER = createRequire(import.meta.url).resolve("better-sqlite3");
const WRITER = path.resolve("test/support/plant-writer-process.ts");

// Another process's connection, as a CLI's or another worker's. Each line it
// is sent is a statement it runs, answering the rows or changes (or the
// error's code); "HOLD <ms>" holds the write lock that long, in a transaction
// that stores a plant, answering "holding" and then "released"; "LOCK" holds
// it so until "UNLOCK" comes, answering the same; "CHURN <ms> <gap ms>
// <holds>" does so again and again, a gap between holds, at most <holds>
// times, answering "holding" at the first and, on "STOP", how many it
// committed. (Bounded: on a loaded machine the writers may take many holds'
// time, and the lock must not be kept from them for ever.)
const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { timeout: 5000 });
// Its plants' ids are its own: negative, from its process id.
const firstId = -process.pid * 100000;
let holder = firstId;
function hold(ms) {
  db.exec("BEGIN IMMEDIATE");
  db.prepare("INSERT INTO plants (id, name, created_at) VALUES (?, 'Holder', 0)").run(--holder);
  if (holder === firstId - 1 || !churning) process.stdout.write("holding\\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  db.exec("COMMIT");
}
let churning = false;
let holds = 0;
process.stdout.write("open\\n");
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, ms, gap, most] = line.split(" ");
  if (command === "HOLD") {
    hold(Number(ms));
    process.stdout.write("released\\n");
  } else if (command === "LOCK") {
    db.exec("BEGIN IMMEDIATE");
    db.prepare("INSERT INTO plants (id, name, created_at) VALUES (?, 'Holder', 0)").run(--holder);
    process.stdout.write("holding\\n");
  } else if (command === "UNLOCK") {
    db.exec("COMMIT");
    process.stdout.write("released\\n");
  } else if (command === "CHURN") {
    churning = true;
    const again = () => {
      if (!churning || holds >= Number(most)) return;
      hold(Number(ms));
      holds++;
      setTimeout(again, Number(gap));
    };
    again();
  } else if (command === "STOP") {
    churning = false;
    process.stdout.write(holds + "\\n");
  } else {
    try {
      const statement = db.prepare(line);
      process.stdout.write(JSON.stringify(statement.reader ? statement.all() : statement.run().changes) + "\\n");
    } catch (error) {
      process.stdout.write(error.code + "\\n");
    }
  }
});
`;

type Child = { nextLine(): Promise<string>; send(line: string): void };
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill()));

function start(args: string[]): Child {
  const child = spawn(process.execPath, args, { env: appEnv(database) });
  children.push(child);
  const output = lineReader(child.stdout);
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  child.once("close", (code) => {
    if (code !== 0 && code !== null) output.answerWaiting(`exited with ${code}: ${errors}`);
  });
  return {
    nextLine: output.nextLine,
    send: (line) => child.stdin.write(`${line}\n`),
  };
}

async function startHolder(): Promise<Child & { ask(line: string): Promise<string> }> {
  const holder = start(["-e", HOLDER, DRIVER, file()]);
  expect(await holder.nextLine()).toBe("open");
  return {
    ...holder,
    ask: (line) => {
      holder.send(line);
      return holder.nextLine();
    },
  };
}

/** A writer process (test/support/plant-writer-process.ts), connected and ready to write. */
async function startWriter(first: number, count: number, inFlight: number): Promise<{ go(): Promise<WriterResult> }> {
  const writer = start(["--import", "tsx", WRITER, String(first), String(count), String(inFlight)]);
  expect(await writer.nextLine()).toBe("ready");
  return {
    go: async () => {
      writer.send("go");
      for (;;) {
        const line = await writer.nextLine();
        if (line.startsWith("result ")) return JSON.parse(line.slice("result ".length)) as WriterResult;
        if (line.startsWith("exited with")) throw new Error(line);
      }
    },
  };
}

/**
 * Runs `during`, and answers its outcome, how long it took, and whether a
 * 100 ms timer set beside it ran while it was still waiting. Kept in SQLite's
 * own busy wait, the event loop would run the timer only once the wait was
 * over: an order of events, which no machine's speed decides (the busy
 * timeout, 5 s, is fifty times the timer's).
 */
async function ticking<T>(during: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; timerRanWhileWaiting: boolean; elapsedMs: number }> {
  let settled = false;
  const timer = sleep(100).then(() => !settled);
  const started = performance.now();
  const [outcome] = await Promise.allSettled([during()]);
  settled = true;
  const elapsedMs = performance.now() - started;
  return { outcome: outcome!, timerRanWhileWaiting: await timer, elapsedMs };
}

const PLANTS_PER_WRITER = 300;

it("stores every create of three processes while a fourth holds the write lock again and again, and each process's creates share commits", async () => {
  const holder = await startHolder();
  const writers = await Promise.all([1, 2, 3].map((n) => startWriter(n * 10_000, PLANTS_PER_WRITER, 20)));
  // 200 ms holds with 20 ms between them: the writers meet the lock held at their start and at every hold after.
  expect(await holder.ask("CHURN 200 20 10")).toBe("holding");
  const results = await Promise.all(writers.map((writer) => writer.go()));
  const holds = Number(await holder.ask("STOP"));

  expect(results.flatMap((result) => result.failures)).toEqual([]);
  for (const result of results) {
    expect(result.stored).toHaveLength(PLANTS_PER_WRITER);
    expect(result.batches.plants).toBe(PLANTS_PER_WRITER);
    // Several creates to a commit: a 200 ms hold gathers the creates that arrive meanwhile.
    expect(result.batches.count).toBeLessThan(PLANTS_PER_WRITER / 4);
  }
  expect(holds).toBeGreaterThanOrEqual(2);
  const rows = await database.query<{ id: bigint }>(`SELECT id FROM plants WHERE name LIKE 'Writer %' ORDER BY id`);
  const acknowledged = results.flatMap((result) => result.stored.map(BigInt)).sort((a, b) => (a < b ? -1 : 1));
  expect(rows.map((row) => row.id)).toEqual(acknowledged);
});

it("commits a transaction that read before another process committed, the other process waiting for it", async () => {
  await createPlant({ id: 1n, name: "Fern" }, TEST_BY);
  await createPlant({ id: 2n, name: "Moss" }, TEST_BY);
  const other = await startHolder();
  let otherAnswer: Promise<string> | undefined;
  await db().$transaction(async (tx) => {
    const fern = await tx.plant.findUniqueOrThrow({ where: { id: 1n } });
    // With a deferred BEGIN the other process committed now, and the update below failed with SQLITE_BUSY_SNAPSHOT.
    otherAnswer = other.ask("UPDATE plants SET name = 'Moss (other)' WHERE id = 2");
    await Promise.race([otherAnswer, sleep(300)]);
    await tx.plant.update({ where: { id: 1n }, data: { name: `${fern.name} (read, then written)` } });
  });
  expect(await otherAnswer).toBe("1");
  const rows = await database.query<{ name: string }>(`SELECT name FROM plants WHERE id IN (1, 2) ORDER BY id`);
  expect(rows.map((row) => row.name)).toEqual(["Fern (read, then written)", "Moss (other)"]);
});

it("waits for another process's write lock with the event loop free, in a transaction (a create) and outside one", async () => {
  // The client connected and its queries compiled first: that is work on the event loop, but not waiting.
  await createPlant({ id: 10n, name: "Ivy" }, TEST_BY);
  const holder = await startHolder();
  expect(await holder.ask("LOCK")).toBe("holding");
  let released = false;
  const { outcome, timerRanWhileWaiting } = await ticking(async () => {
    const writes = Promise.all([createPlant({ id: 11n, name: "Rush" }, TEST_BY), db().$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (12, 'Sedge', 0)`]).then(
      (written) => ({ written, beforeUnlock: !released }),
    );
    // Only this process's event loop lets the lock go: blocked in a busy wait, it could not, and both writes
    // would give up as busy. Neither may finish before the lock is let go.
    await sleep(300);
    holder.send("UNLOCK");
    released = true;
    return writes;
  });
  expect(outcome).toMatchObject({ status: "fulfilled", value: { written: [{ status: "stored" }, 1], beforeUnlock: false } });
  expect(timerRanWhileWaiting).toBe(true);
  expect(await holder.nextLine()).toBe("released");
});

it("gives up as busy (a 503) once the lock has been held past the busy timeout, each waiting statement counting from when it was issued, the event loop free meanwhile", async () => {
  await createPlant({ id: 20n, name: "Reed" }, TEST_BY);
  const holder = await startHolder();
  expect(await holder.ask(`HOLD ${SQLITE_BUSY_TIMEOUT_MS + 1000}`)).toBe("holding");
  // Issued together, the statement first and then the create's transaction, which waits behind it in this process.
  const { outcome, timerRanWhileWaiting, elapsedMs } = await ticking(() =>
    Promise.allSettled([db().$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (21, 'Flax', 0)`, createPlant({ id: 22n, name: "Hemp" }, TEST_BY)]),
  );
  const reasons = outcome.status === "fulfilled" ? outcome.value.map((each) => (each.status === "rejected" ? databaseOutage(each.reason) : "stored")) : [];
  expect(reasons).toEqual(["busy", "busy"]);
  // Both gave up at the timeout, not the second a timeout after the first (that would be twice the timeout).
  expect(elapsedMs).toBeGreaterThan(SQLITE_BUSY_TIMEOUT_MS - 100);
  expect(elapsedMs).toBeLessThan(SQLITE_BUSY_TIMEOUT_MS * 1.5);
  expect(timerRanWhileWaiting).toBe(true);
  expect(await holder.nextLine()).toBe("released");
  // Nothing of them was stored, and the connection goes on.
  await createPlant({ id: 23n, name: "Jute" }, TEST_BY);
  expect((await database.query(`SELECT id FROM plants WHERE id IN (21, 22, 23)`)).map((row) => row.id)).toEqual([23n]);
});

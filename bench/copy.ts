// npm run bench:copy: how long `db copy` takes to move a store of a million
// plants between the engines (issue 23), which is how long a store must stop
// for to move. A SQLite store is made once, written straight in the app's own
// forms: BENCH_PLANTS plants across int64 (every third without a tag, a tenth
// changed once) and BENCH_ACTIVITY activity records, with an owner and a
// token. Then, in each round, the copy as operators run it (`npm run --silent
// db -- copy --to`, the compiled CLI after `npm run build`) into a fresh,
// migrated PostgreSQL database, and from there into a fresh, migrated SQLite
// file. Prints each copy's wall time, rows/s, its own copy and verification
// times, and the process's peak resident memory; then the median and range
// per direction. Exits 1 if a copy fails.
//   BENCH_PLANTS    plants in the store (default 1,000,000)
//   BENCH_ACTIVITY  activity records (default 100,000)
//   BENCH_ROUNDS    rounds (default 3)
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { migrate } from "@/lib/db/migrate";
import { appEnv } from "@/test/support/app-env";
import { cliCommand } from "@/test/support/cli";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";

const PLANTS = Number(process.env.BENCH_PLANTS ?? 1_000_000);
const ACTIVITY = Number(process.env.BENCH_ACTIVITY ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

type Run = { direction: string; seconds: number; rows: number; copySeconds: number; verifySeconds: number; peakMb: number };

const at = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** The store, written as the app writes it on SQLite, in one transaction. */
async function makeStore(database: TestDatabase): Promise<void> {
  if (database.config.provider !== "sqlite") throw new Error("the store is made on SQLite");
  await migrate(database.config);
  const sqlite = new Database(database.config.path);
  const start = Date.UTC(2026, 0, 1);
  const plant = sqlite.prepare("INSERT INTO plants (id, name, tag, created_at, version, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
  const record = sqlite.prepare(
    "INSERT INTO activity (occurred_at, action, actor_kind, actor_user_id, actor_token_id, actor_name, client_address, user_agent, request_id, subject_kind, subject_id, changes) VALUES (?, 'plant.created', 'token', NULL, 'tok_bench', 'till', '192.0.2.7', 'bench/1.0', ?, 'plant', ?, ?)",
  );
  sqlite.transaction(() => {
    sqlite.prepare("INSERT INTO users (id, email, name, role, password_hash, created_at) VALUES ('usr_bench', 'owner@plants.example', 'Olga Ørsted', 'owner', '$argon2id$v=19$m=19456,t=2,p=1$bench', ?)").run(at(start));
    sqlite.prepare("INSERT INTO api_tokens (id, label, scopes, owner_id, created_at, expires_at) VALUES ('tok_bench', 'till', 'plants:write', 'usr_bench', ?, ?)").run(at(start), at(start + 365 * 86_400_000));
    // Ids spread over int64, both edges among them.
    const step = (2n ** 64n - 2n) / BigInt(PLANTS);
    for (let index = 0; index < PLANTS; index++) {
      const id = index === PLANTS - 1 ? 9223372036854775807n : -9223372036854775808n + BigInt(index) * step;
      const changed = index % 10 === 0;
      plant.run(id, `Bench fern ${index} ✿`, index % 3 === 0 ? null : `tag ${index % 40}`, at(start + index * 1000), changed ? 2 : 1, changed ? at(start + index * 1000 + 500) : null);
      if (index < ACTIVITY) record.run(at(start + index * 1000), `req-${index}`, String(id), `{"after":{"id":${id},"name":"Bench fern ${index} ✿"}}`);
    }
  })();
  sqlite.close();
}

/** Peak resident memory of a running process so far, in MB (Linux: VmHWM). */
function peakMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((each) => each.startsWith("VmHWM:"));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** `npm run --silent db -- copy --to <target>` against `source`'s configuration, timed. */
function copy(direction: string, source: TestDatabase, target: TestDatabase): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...cliCommand("db"), "copy", "--to", target.url], { env: appEnv(source), stdio: ["ignore", "pipe", "pipe"] });
    let [stdout, stderr, peak] = ["", "", 0];
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const sampler = setInterval(() => (peak = Math.max(peak, peakMb(child.pid!))), 200);
    child.once("close", (code) => {
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      const summary = /^copied ([\d,]+) rows .* \(copy ([\d.]+) s, verification ([\d.]+) s\)/m.exec(stdout);
      if (code !== 0 || !summary) return reject(new Error(`${direction}: the copy exited with ${code}:\n${stderr}${stdout}`));
      resolve({ direction, seconds, rows: Number(summary[1]!.replaceAll(",", "")), copySeconds: Number(summary[2]), verifySeconds: Number(summary[3]), peakMb: peak });
    });
  });
}

function show(run: Run): string {
  return `  ${run.direction}: ${run.seconds.toFixed(1)} s, ${Math.round(run.rows / run.seconds).toLocaleString("en-US")} rows/s (copy ${run.copySeconds} s, verification ${run.verifySeconds} s), peak ${run.peakMb.toFixed(0)} MB`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function uptime(): Promise<string> {
  return new Promise((resolve) => execFile("uptime", (error, stdout) => resolve(error ? "" : stdout.trim())));
}

async function main(): Promise<void> {
  const source = await makeTestDatabase("sqlite");
  const made: TestDatabase[] = [source];
  try {
    const making = performance.now();
    await makeStore(source);
    console.log(`a SQLite store of ${PLANTS.toLocaleString("en-US")} plants and ${ACTIVITY.toLocaleString("en-US")} activity records, made in ${((performance.now() - making) / 1000).toFixed(1)} s`);
    const runs: Run[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS} (${await uptime()})`);
      const postgres = await makeTestDatabase("postgresql");
      const back = await makeTestDatabase("sqlite");
      made.push(postgres, back);
      await Promise.all([migrate(postgres.config), migrate(back.config)]);
      for (const run of [await copy("SQLite to PostgreSQL", source, postgres), await copy("PostgreSQL to SQLite", postgres, back)]) {
        console.log(show(run));
        runs.push(run);
      }
      await Promise.all([postgres.drop(), back.drop()]);
      made.splice(made.indexOf(postgres), 2);
    }
    for (const direction of ["SQLite to PostgreSQL", "PostgreSQL to SQLite"]) {
      const seconds = runs.filter((run) => run.direction === direction).map((run) => run.seconds);
      const rate = runs.filter((run) => run.direction === direction).map((run) => run.rows / run.seconds);
      console.log(
        `${direction}: median ${median(seconds).toFixed(1)} s (${Math.min(...seconds).toFixed(1)} to ${Math.max(...seconds).toFixed(1)}), ` +
          `${Math.round(median(rate)).toLocaleString("en-US")} rows/s (${Math.round(Math.min(...rate)).toLocaleString("en-US")} to ${Math.round(Math.max(...rate)).toLocaleString("en-US")}) over ${seconds.length} rounds`,
      );
    }
  } finally {
    await Promise.all(made.map((database) => database.drop()));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

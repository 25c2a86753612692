import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, freePort, startApp } from "@/test/support/app-server";
import { makeAccount } from "@/test/support/accounts";
import { testDatabaseProvider } from "@/test/support/test-database";
import { answeringWorkers, distinctWorkers, send, sendEach } from "@/test/support/worker-requests";

// One `npm start` with two workers (issue 25) counts as one server: a rate
// limit is one allowance whichever worker a request reaches (on SQLite the
// counters live in the primary, RateLimiterCluster; on PostgreSQL in the
// rate_limits table), and /metrics, served by the primary, adds every
// worker's up into one series each. Each request goes on a connection of its
// own, which the primary hands to the next worker; the request log says
// which worker answered.

const PASSWORD = "correct horse battery staple";
const EMAIL = "olive@plants.example";

let app: AppServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  // A window of an hour, so that a test's requests all fall in one however slow the machine; keep-alive
  // connections that stay open between requests however long they take, so a pinned worker stays the same.
  app = await startApp({
    env: { WEB_CONCURRENCY: "2", RATE_LIMIT_API: "10/1h", RATE_LIMIT_SIGN_IN_ACCOUNT: "4/15m", METRICS_PORT: String(metricsPort), KEEP_ALIVE_TIMEOUT_MS: "600000" },
  });
  await makeAccount(app.database, { email: EMAIL, role: "owner", password: PASSWORD });
});

afterAll(async () => {
  await app?.stop();
});

describe("a rate limit across the workers", () => {
  it("is one allowance: 10 requests pass, spread over both workers and counted down in turn, and every request past them is 429 on either", async () => {
    const token = await createToken(app.database, ["plants:read"]);
    const passed = await sendEach(10, `${app.url}/plants?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(passed.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await distinctWorkers(app, passed)).toEqual([0, 1]);
    // One counter: what is left goes down by one a request, whichever worker counted it.
    expect(passed.map((answer) => /^"api";r=(\d+);t=\d+$/.exec(answer.headers.ratelimit ?? "")?.[1])).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);

    const refused = await sendEach(4, `${app.url}/plants?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.map((answer) => answer.status)).toEqual([429, 429, 429, 429]);
    expect(await distinctWorkers(app, refused)).toEqual([0, 1]);
  });

  // On SQLite the counters are the primary's: a primary a loaded machine holds up must not fail the workers' requests.
  it.runIf(testDatabaseProvider() === "sqlite")("is counted in the worker's own memory while the primary does not answer, and the request is answered", async () => {
    const token = await createToken(app.database, ["plants:read"]);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const primary = app.pid()!;
    try {
      const read = () => send(`${app.url}/plants?limit=1`, { headers: { authorization: `Bearer ${token}` } }, agent);
      const left = (answer: { headers: Record<string, string> }) => /^"api";r=(\d+);t=\d+$/.exec(answer.headers.ratelimit ?? "")?.[1];
      // The connection is the worker's from now on: the primary need not hand it over again.
      const first = await read();
      expect([first.status, left(first)]).toEqual([200, "9"]);
      process.kill(primary, "SIGSTOP");
      let insured;
      try {
        insured = await read();
      } finally {
        process.kill(primary, "SIGCONT");
      }
      // Counted by the worker, which had not seen the first: the primary would have said 8.
      expect([insured.status, left(insured)]).toEqual([200, "9"]);
      expect(app.output()).not.toMatch(/"status":500/);
    } finally {
      agent.destroy();
    }
  });

  it("counts failed sign-ins as one: four wrong passwords through both workers, and then the right one is held back by either", async () => {
    const wrong: Attempt[] = [];
    for (let attempt = 0; attempt < 4; attempt++) wrong.push(await signInOnOneConnection("not the password at all"));
    expect(wrong.map((attempt) => attempt.error)).toEqual(Array(4).fill("CredentialsSignin"));
    expect([...new Set(wrong.map((attempt) => attempt.worker))].sort()).toEqual([0, 1]);

    const held: Attempt[] = [];
    for (let attempt = 0; attempt < 6 && new Set(held.map((each) => each.worker)).size < 2; attempt++) held.push(await signInOnOneConnection(PASSWORD));
    expect([...new Set(held.map((attempt) => attempt.worker))].sort()).toEqual([0, 1]);
    expect(held.filter((attempt) => !/^rate-limited:\d+$/.test(attempt.error ?? ""))).toEqual([]);
  });
});

type Attempt = { worker: number; error: string | null };

/**
 * A sign-in with the password, as next-auth's client makes it (its CSRF token
 * and cookie, then the credentials), on one connection, so that one worker
 * answers it all. Next-auth's endpoints are not in the request log: an API
 * request first, on that connection, names the worker.
 */
async function signInOnOneConnection(password: string): Promise<Attempt> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // Without credentials: a 401, logged with the worker's place.
    const probe = await send(`${app.url}/plants`, {}, agent);
    const csrf = await send(`${app.url}/api/auth/csrf`, {}, agent);
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const cookie = csrf.setCookies.map((each) => each.split(";")[0]).join("; ");
    const answer = await send(
      `${app.url}/api/auth/callback/credentials`,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrfToken, email: EMAIL, password, json: "true" }).toString(),
      },
      agent,
    );
    // One connection, so one worker, for all three.
    expect(new Set([probe, csrf, answer].map((each) => each.localPort)).size).toBe(1);
    const { url } = JSON.parse(answer.body) as { url: string };
    const [worker] = await answeringWorkers(app, [probe]);
    return { worker: worker!, error: new URL(url).searchParams.get("error") };
  } finally {
    agent.destroy();
  }
}

describe("/metrics of a server with two workers", () => {
  async function scrape(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  }

  const READS = 8;
  const served = (text: string) => Number(/^plant_store_http_requests_total\{operation="getPlant",status="200"\} (\d+)$/m.exec(text)?.[1] ?? 0);

  it("counts every worker's requests in one series: N reads spread over both are N", async () => {
    const token = await createToken(app.database, ["plants:write"]);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    expect((await send(`${app.url}/plants`, { method: "POST", headers, body: '{"id":1,"name":"Fern"}' })).status).toBe(200);
    const before = served(await scrape());
    const reads = await sendEach(READS, `${app.url}/plants/1`, { headers });
    expect(reads.map((answer) => answer.status)).toEqual(Array(READS).fill(200));
    expect(await distinctWorkers(app, reads)).toEqual([0, 1]);
    // A worker counts a request as it logs it, which may be a moment after its answer.
    await expect.poll(async () => served(await scrape()) - before).toBe(READS);
  });

  it("lists each metric and each series once", async () => {
    const lines = (await scrape()).split("\n").filter((line) => line !== "");
    const described = lines.filter((line) => line.startsWith("# TYPE ")).map((line) => line.split(" ")[2]!);
    expect(described.length).toBeGreaterThan(10);
    expect(duplicates(described)).toEqual([]);
    const series = lines.filter((line) => !line.startsWith("#")).map((line) => line.slice(0, line.lastIndexOf(" ")));
    expect(duplicates(series)).toEqual([]);
    // No series names a worker apart: the primary added them up.
    expect(series.filter((each) => /[{,]worker="/.test(each))).toEqual([]);
  });

  it("gives the primary's own memory beside the workers' sum, under its own names", async () => {
    const text = await scrape();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    const primary = value("plant_store_primary_process_resident_memory_bytes");
    const workers = value("plant_store_process_resident_memory_bytes");
    // The primary loads no Next, React or Prisma client: tens of MB; two workers, hundreds.
    expect(primary).toBeGreaterThan(10e6);
    expect(workers).toBeGreaterThan(2 * primary);
    expect(text).toMatch(/^plant_store_primary_process_cpu_seconds_total \S+$/m);
  });
});

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

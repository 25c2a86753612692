import { type Browser, chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { parseExactJson } from "@/lib/json/exact-json";
import { openChangeStream } from "@/test/support/change-stream";
import { chromiumPath } from "@/test/support/chromium";
import { makeAccount } from "@/test/support/accounts";
import { revokeApiTokens } from "@/test/support/api-tokens";
import { startRoundRobinProxy } from "@/test/support/round-robin-proxy";
import { makeTestDatabase, storedPlants, type TestDatabase } from "@/test/support/test-database";

// Two `next start` processes on one PostgreSQL database behave as one service.
// Each instance is a real built app; the session test puts a round-robin
// proxy in front of both, as a load balancer would.

let database: TestDatabase;
let instances: AppServer[];
let writeToken: string;

beforeAll(async () => {
  database = await makeTestDatabase("postgresql");
  // Started together: both apply migrations at start, one after the other under Prisma's lock.
  // The rate-limit test names its client in X-Forwarded-For, trusted from loopback.
  const env = { RATE_LIMIT_ANONYMOUS: "8/1m", TRUST_PROXY: "loopback" };
  instances = await Promise.all([startApp({ database, env }), startApp({ database, env })]);
  writeToken = await createToken(database, ["plants:write"]);
});

afterAll(async () => {
  await Promise.all(instances?.map((instance) => instance.stop()) ?? []);
  await database?.drop();
});

function post(instance: AppServer, body: string, token = writeToken): Promise<Response> {
  return fetch(`${instance.url}/plants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });
}

describe("the change feed across instances (issue 32)", () => {
  it("gives a stream on one instance the changes made on the other, even once the instances' notifications were lost", async () => {
    const tag = "across-instances";
    const stream = await openChangeStream(`${instances[0]!.url}/plants/events?tag=${tag}`, { authorization: `Bearer ${writeToken}` });
    expect(stream.status).toBe(200);
    expect((await post(instances[1]!, `{"id":9007199254750001,"name":"Heard","tag":"${tag}"}`)).status).toBe(200);
    await stream.waitFor(1);
    // The LISTEN connection cut (only the instance that holds a stream listens): what is committed meanwhile is found, not lost.
    const [row] = await database.query<{ cut: bigint }>(
      "SELECT count(pg_terminate_backend(pid)) AS cut FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'plant-store live'",
    );
    expect(Number(row!.cut)).toBe(1);
    expect((await post(instances[1]!, `{"id":9007199254750002,"name":"Found","tag":"${tag}"}`)).status).toBe(200);
    const events = await stream.waitFor(2);
    expect(events.map((event) => (parseExactJson(event.data) as { data: { id: bigint } }).data.id)).toEqual([9007199254750001n, 9007199254750002n]);
    expect(BigInt(events[1]!.id!)).toBeGreaterThan(BigInt(events[0]!.id!));
    stream.close();
  });
});

describe("two instances on one PostgreSQL database", () => {
  it("store exactly one row for 50 concurrent creates of one id; every answer is 200 for the winning data and 409 for the other", async () => {
    for (const id of [7_000_001n, 7_000_002n, 7_000_003n]) {
      const attempts = Array.from({ length: 50 }, (_, index) => ({
        instance: instances[Math.floor(index / 2) % 2]!,
        name: index % 2 === 0 ? "Fern" : "Palm",
      }));
      const answers = await Promise.all(attempts.map(async ({ instance, name }) => ({ name, status: (await post(instance, `{"id":${id},"name":"${name}"}`)).status })));
      const rows = (await storedPlants(database)).filter((plant) => plant.id === id);
      expect(rows).toHaveLength(1);
      const winner = rows[0]!.name;
      expect(answers.filter((answer) => answer.status !== (answer.name === winner ? 200 : 409))).toEqual([]);
    }
  });

  it("share rate limits: a client spreading its bad guesses over both meets one allowance", async () => {
    const guess = (instance: AppServer) => fetch(`${instance.url}/plants`, { headers: { authorization: "Bearer guess", "x-forwarded-for": "203.0.113.9" } });
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) for (const instance of instances) statuses.push((await guess(instance)).status);
    expect(statuses).toEqual(Array(8).fill(401));
    // Either instance alone would have allowed 8; together they have spent them.
    for (const instance of instances) expect((await guess(instance)).status).toBe(429);
  });

  // Revoked as `token revoke` does (test/http/create-plant.test.ts revokes through the CLI itself).
  it("refuse a revoked token on the very next request, on every instance", async () => {
    const token = await createToken(database, ["plants:write"], "1h", "revoked");
    for (const [index, instance] of instances.entries()) expect((await post(instance, `{"id":${7_100_000 + index},"name":"Moss"}`, token)).status).toBe(200);
    await revokeApiTokens(database, "revoked");
    for (const instance of instances) {
      const refused = await post(instance, '{"id":7100009,"name":"Moss"}', token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: 401, message: "the bearer token has been revoked" });
    }
  });
});

describe("a staff member behind a load balancer", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath() });
    await makeAccount(database, { email: "olive@plants.example", name: "Olive", role: "owner", password: "correct horse battery staple" });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("signs in through one instance and works on both: pages, the plant form, and the tokens page's server actions", async () => {
    const proxy = await startRoundRobinProxy(instances.map((instance) => instance.url));
    try {
      const page = await browser.newPage({ baseURL: proxy.url });
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill("olive@plants.example");
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "Plants" }).waitFor();

      await page.goto("/plants/new");
      await page.getByLabel("Id").fill("9007199254740993");
      await page.getByLabel("Name").fill("Monstera deliciosa");
      await page.getByRole("button", { name: "Add plant" }).click();
      await expect.poll(() => page.getByRole("status").textContent()).toBe("Saved Monstera deliciosa with id 9007199254740993.");

      await page.goto("/tokens");
      await page.getByLabel("Label").fill("till sync");
      await page.getByRole("checkbox", { name: "plants:write" }).check();
      await page.getByRole("button", { name: "Create token" }).click();
      const token = await page.getByLabel("New API token").inputValue();
      await page.getByRole("button", { name: "Revoke token till sync" }).click();
      await expect.poll(() => page.getByRole("row", { name: /till sync/ }).textContent()).toContain("revoked");
      // Revoked through whichever instance served the action: refused by every instance.
      for (const instance of instances) expect((await post(instance, '{"id":7200001,"name":"Ivy"}', token)).status).toBe(401);

      expect((await storedPlants(database)).find((plant) => plant.id === 9007199254740993n)).toEqual({ id: 9007199254740993n, name: "Monstera deliciosa", tag: null });
      // Both instances served the signed-in session, reads and writes alike.
      for (const instance of [0, 1]) {
        const session = proxy.served.filter((request) => request.instance === instance && request.withSession);
        expect(session.some((request) => request.method === "GET"), `instance ${instance} served a signed-in page`).toBe(true);
        expect(session.some((request) => request.method === "POST"), `instance ${instance} served a signed-in write`).toBe(true);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe("one instance killed under write load", () => {
  it("loses no plant answered with 200, and the other instance keeps answering", async () => {
    const [doomed, survivor] = instances as [AppServer, AppServer];
    const acknowledged: bigint[] = [];
    const survivorAnswers: number[] = [];
    let killed = false;
    let nextId = 8_000_000n;
    const deadline = Date.now() + 3_000;
    const writer = async (instance: AppServer) => {
      while (Date.now() < deadline) {
        const id = nextId++;
        const response = await post(instance, `{"id":${id},"name":"Load"}`).catch(() => undefined);
        if (response === undefined) {
          // Only the killed instance's connections may fail, and only once it is killed.
          expect({ instance: instance === doomed ? "doomed" : "survivor", killed }).toEqual({ instance: "doomed", killed: true });
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        if (response.status === 200) acknowledged.push(id);
        if (instance === survivor && killed) survivorAnswers.push(response.status);
        else expect(response.status).toBe(200);
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, index) => writer(index % 2 === 0 ? doomed : survivor)));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    killed = true;
    await doomed.kill("SIGKILL");
    await load;

    expect(survivorAnswers.length).toBeGreaterThan(0);
    expect(survivorAnswers.filter((status) => status !== 200)).toEqual([]);
    const stored = new Set((await storedPlants(database)).map((plant) => plant.id));
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });
});

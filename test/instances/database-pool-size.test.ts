import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";

// PostgreSQL's connections are what several workers on several machines run
// out of first (max_connections, 100 by default): each server process opens
// at most DATABASE_POOL_SIZE for the app's queries, named so that an operator
// finds them in pg_stat_activity. Two workers with a pool of 2, under more
// concurrent requests than that, hold at most 4 app connections between them.

const WORKERS = 2;
const POOL_SIZE = 2;

let database: TestDatabase;
let app: AppServer;
let token: string;

beforeAll(async () => {
  database = await makeTestDatabase("postgresql");
  app = await startApp({ database, env: { WEB_CONCURRENCY: String(WORKERS), DATABASE_POOL_SIZE: String(POOL_SIZE) } });
  token = await createToken(database, ["plants:write", "plants:read"]);
});

afterAll(async () => {
  await app?.stop();
  await database?.drop();
});

async function appConnections(): Promise<number> {
  const [row] = await database.query<{ count: bigint }>(
    "SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'plant-store'",
  );
  return Number(row!.count);
}

it("each worker opens no more than DATABASE_POOL_SIZE connections for the app, however many requests wait", async () => {
  let most = 0;
  let loading = true;
  const watching = (async () => {
    while (loading) {
      most = Math.max(most, await appConnections());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  // A new connection per request, so that both workers take their share.
  const request = (index: number) =>
    fetch(`${app.url}/plants${index % 2 === 0 ? "?limit=20" : ""}`, {
      method: index % 2 === 0 ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", connection: "close" },
      body: index % 2 === 0 ? undefined : JSON.stringify({ id: 7_100_000 + index, name: `Pooled ${index}` }),
    }).then((response) => response.status);
  const statuses: number[] = [];
  for (let round = 0; round < 5; round++) statuses.push(...(await Promise.all(Array.from({ length: 60 }, (_, index) => request(round * 60 + index)))));
  loading = false;
  await watching;
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  // More than one worker's pool was in use, and never more than the pools allow.
  expect(most).toBeGreaterThan(POOL_SIZE);
  expect(most).toBeLessThanOrEqual(WORKERS * POOL_SIZE);
  expect(await appConnections()).toBeLessThanOrEqual(WORKERS * POOL_SIZE);
});

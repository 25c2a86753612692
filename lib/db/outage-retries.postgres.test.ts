import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { db, disconnectDatabase } from "@/lib/db/client";
import { databaseOutage } from "@/lib/db/database-outage";
import { directQuery, readRows } from "@/lib/db/direct-reads";
import { migrate } from "@/lib/db/migrate";
import { env } from "@/lib/server/env";
import { startTcpProxy, type TcpProxy } from "@/test/support/tcp-proxy";
import { makeTestDatabase, type TestDatabase, testPostgresUrl } from "@/test/support/test-database";
import { failure } from "@/test/support/failure";

// The app's own clients (the Prisma client and the direct reads, on one pool)
// when the connection the pool hands out is already dead: the server's side
// was dropped without a word (a failover, a firewall), so the app learns of
// it only when it sends. What is safe to do again is done again on a new
// connection (a read, the start of a transaction); a write is not repeated.

let database: TestDatabase;
let proxy: TcpProxy;

beforeAll(async () => {
  const server = new URL(testPostgresUrl());
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  database = await makeTestDatabase();
  const through = new URL(database.url);
  through.port = String(proxy.port);
  for (const name of ["NEXTAUTH_SECRET", "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY", "NEXTAUTH_URL"]) vi.stubEnv(name, "");
  for (const [name, value] of Object.entries({ ...database.env, DATABASE_URL: through.href })) vi.stubEnv(name, value);
  await migrate(env().database);
});

afterAll(async () => {
  await disconnectDatabase();
  await database?.drop();
  await proxy?.close();
});

// One connection in the pool, then dropped by the server's side: the next statement meets it dead.
beforeEach(async () => {
  await disconnectDatabase();
  await db().$queryRaw`SELECT 1`;
  proxy.severQuietly();
});

it("reads through Prisma again, on a new connection", async () => {
  expect(await db().plant.count()).toBe(0);
});

it("reads a direct read again, on a new connection", async () => {
  expect(await readRows(directQuery("SELECT 1 AS one"), [])).toEqual([{ one: 1 }]);
});

it("starts a transaction again, on a new connection, and commits it once", async () => {
  await db().$transaction((tx) => tx.plant.create({ data: { id: 1n, name: "Fern" } }));
  expect(await database.query("SELECT id FROM plants WHERE id = 1")).toEqual([{ id: 1n }]);
});

it("does not repeat a write: its failure says the connection was lost, and nothing is written twice", async () => {
  const error = await failure(db().$queryRaw`INSERT INTO plants (id, name, created_at) VALUES (2, 'Moss', now()) RETURNING id`);
  expect(databaseOutage(error)).toBe("lost");
  expect(await database.query("SELECT id FROM plants WHERE id = 2")).toEqual([]);
  // The pool dropped the dead connection: the next write has a live one.
  await db().$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (2, 'Moss', now())`;
  expect(await database.query("SELECT id FROM plants WHERE id = 2")).toEqual([{ id: 2n }]);
});

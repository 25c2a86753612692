import { HANG_GUARD_MS } from "@/test/support/hang-guard";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseOutage } from "@/lib/db/database-outage";
import { migrate } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/postgres/client";
import { startTcpProxy, type TcpProxy } from "@/test/support/tcp-proxy";
import { makeTestDatabase, type TestDatabase, testPostgresUrl, withPostgres } from "@/test/support/test-database";
import { failure } from "@/test/support/failure";

// PostgreSQL's outages, each provoked for real on the test server and met
// both raw (pg, as the direct reads meet them) and through Prisma's adapter:
// a connection terminated under a statement (pg_terminate_backend), reset
// (its network path cut), or closed by the server; a connection that died
// idle inside a transaction; a server that refuses connections (a port where
// nothing listens, a database not accepting connections). A statement the
// server refuses is no outage.

let database: TestDatabase;
let proxy: TcpProxy;
const clients: { end(): Promise<void> }[] = [];

beforeAll(async () => {
  database = await makeTestDatabase("postgresql");
  await migrate(database.config);
  const server = new URL(testPostgresUrl());
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
  await proxy?.close();
  await database?.drop();
});

/** A pool and a Prisma client on it, to the test database or, with `port`, through another port. */
function connectTo(port?: number): { pool: pg.Pool; prisma: PrismaClient } {
  const url = new URL(database.url);
  if (port !== undefined) url.port = String(port);
  const pool = new pg.Pool({ connectionString: url.href });
  // What the app does (lib/db/postgres.ts): an idle connection's end is heard, not fatal.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  clients.push({ end: () => prisma.$disconnect().then(() => pool.end()) });
  return { pool, prisma };
}

/** Fails `statement` by ending its session once it is under way: `end` terminates or cuts it. */
async function endedUnder(statement: Promise<unknown>, end: () => Promise<unknown>): Promise<unknown> {
  const failed = failure(statement);
  await waitForSleepers();
  await end();
  return failed;
}

async function waitForSleepers(): Promise<void> {
  for (;;) {
    const [row] = await database.query<{ count: bigint }>("SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()");
    if (row && row.count > 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const terminateOthers = () => database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");

describe("lost", () => {
  it("a statement whose connection is terminated (57P01, FATAL)", async () => {
    const { pool, prisma } = connectTo();
    const raw = await endedUnder(pool.query("SELECT pg_sleep(5)"), terminateOthers);
    expect(raw).toMatchObject({ code: "57P01", severity: "FATAL" });
    expect(databaseOutage(raw)).toBe("lost");
    const rawThroughPrisma = await endedUnder(prisma.$executeRaw`SELECT pg_sleep(5)`, terminateOthers);
    expect(rawThroughPrisma).toMatchObject({ code: "P2010" });
    expect(databaseOutage(rawThroughPrisma)).toBe("lost");
  });

  it("a model query whose connection is terminated while it waits for a lock", async () => {
    const { prisma } = connectTo();
    const holder = new pg.Client({ connectionString: database.url });
    holder.on("error", () => {});
    await holder.connect();
    clients.push(holder);
    await holder.query("BEGIN; LOCK TABLE plants IN ACCESS EXCLUSIVE MODE");
    const failed = failure(prisma.plant.findMany());
    for (;;) {
      const [row] = await database.query<{ count: bigint }>("SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (row && row.count > 0n) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    const error = await failed;
    await holder.query("ROLLBACK");
    expect(error).toMatchObject({ code: "P2039" });
    expect(databaseOutage(error)).toBe("lost");
  });

  it("a statement whose network path is cut (ECONNRESET)", async () => {
    const { pool, prisma } = connectTo(proxy.port);
    const raw = await endedUnder(pool.query("SELECT pg_sleep(5)"), async () => {
      await proxy.cut();
      await proxy.open();
    });
    expect(raw).toMatchObject({ code: "ECONNRESET" });
    expect(databaseOutage(raw)).toBe("lost");
    const throughPrisma = await endedUnder(prisma.$queryRaw`SELECT pg_sleep(5)`, async () => {
      await proxy.cut();
      await proxy.open();
    });
    expect(throughPrisma).toMatchObject({ meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } } });
    expect(databaseOutage(throughPrisma)).toBe("lost");
  });

  it("a connection the server closes without a word", async () => {
    // A half-closed socket keeps the server from closing: destroyed outright once the test is done.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket.end()));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { pool } = connectTo((silent.address() as AddressInfo).port);
      const error = await failure(pool.query("SELECT 1"));
      expect(error).toMatchObject({ message: "Connection terminated unexpectedly" });
      expect(databaseOutage(error)).toBe("lost");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("unreachable", () => {
  it("the next statement of a transaction whose connection died while it was idle", async () => {
    const { prisma } = connectTo();
    const error = await failure(
      prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await terminateOthers();
        // Time for the client to read the server's last message, and so to know its connection is gone.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.plant.findMany();
      }),
    );
    expect(error).toMatchObject({ message: "Client has encountered a connection error and is not queryable" });
    expect(databaseOutage(error)).toBe("unreachable");
  });

  it("a port where nothing listens (ECONNREFUSED)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { pool, prisma } = connectTo(port);
    const raw = await failure(pool.query("SELECT 1"));
    expect(raw).toMatchObject({ code: "ECONNREFUSED" });
    expect(databaseOutage(raw)).toBe("unreachable");
    const model = await failure(prisma.plant.findMany());
    expect(model).toMatchObject({ code: "P1001" });
    expect(databaseOutage(model)).toBe("unreachable");
  });

  it("a database that accepts no connections now (55000, FATAL)", async () => {
    const name = new URL(database.url).pathname.slice(1);
    const { pool, prisma } = connectTo();
    await withPostgres(testPostgresUrl(), (admin) => admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`));
    try {
      const raw = await failure(pool.query("SELECT 1"));
      expect(raw).toMatchObject({ code: "55000", severity: "FATAL" });
      expect(databaseOutage(raw)).toBe("unreachable");
      const model = await failure(prisma.plant.findMany());
      expect(databaseOutage(model)).toBe("unreachable");
    } finally {
      await withPostgres(testPostgresUrl(), (admin) => admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`));
    }
  });
});

describe("busy", () => {
  it("a transaction that finds no connection free in the pool within its maxWait (P2028): nothing was begun", async () => {
    const url = new URL(database.url);
    const pool = new pg.Pool({ connectionString: url.href, max: 1 });
    pool.on("error", () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 200 } });
    clients.push({ end: () => prisma.$disconnect().then(() => pool.end()) });
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    let begun = () => {};
    const held = new Promise<void>((resolve) => (begun = resolve));
    // The pool's one connection, in a transaction until released. Its own wait is the hang guard's, not the
    // client's 200 ms: on a loaded machine the first transaction too may take longer to begin, and it must.
    const first = prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        begun();
        await holding;
      },
      { maxWait: HANG_GUARD_MS, timeout: HANG_GUARD_MS },
    );
    await held;
    const error = await failure(prisma.$transaction(async (tx) => tx.plant.create({ data: { id: 2n, name: "Never" } })));
    release();
    await first;
    expect(error).toMatchObject({ code: "P2028" });
    expect(databaseOutage(error)).toBe("busy");
    expect(await prisma.plant.findUnique({ where: { id: 2n } })).toBeNull();
  });
});

describe("no outage", () => {
  it("a statement the server refuses, raw and through Prisma", async () => {
    const { pool, prisma } = connectTo();
    const raw = await failure(pool.query("SELEC 1"));
    expect(raw).toMatchObject({ code: "42601", severity: "ERROR" });
    expect(databaseOutage(raw)).toBeUndefined();
    expect(databaseOutage(await failure(prisma.$queryRawUnsafe("SELEC 1")))).toBeUndefined();
    expect(databaseOutage(await failure(prisma.$queryRawUnsafe("SELECT 1/0")))).toBeUndefined();
  });

  it("a unique key already taken", async () => {
    const { prisma } = connectTo();
    await prisma.plant.create({ data: { id: 1n, name: "Fern" } });
    const error = await failure(prisma.plant.create({ data: { id: 1n, name: "Fern" } }));
    expect(error).toMatchObject({ code: "P2002" });
    expect(databaseOutage(error)).toBeUndefined();
  });
});

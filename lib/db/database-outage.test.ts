import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseOutage } from "@/lib/db/database-outage";
import { migrate } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/sqlite/client";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";
import { failure } from "@/test/support/failure";

// SQLite's outage, from real errors: another process's write lock held past
// the busy timeout, as better-sqlite3 reports it to the direct reads and as
// Prisma's adapter reports it (P2010 on a raw statement, P1008 on a model
// query). Other failures are not outages. The PostgreSQL cases are in
// database-outage.postgres.test.ts.

let database: TestDatabase;
let file: string;
let lockHolder: Database.Database;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await makeTestDatabase("sqlite");
  if (database.config.provider !== "sqlite") throw new Error("a SQLite database");
  file = database.config.path;
  await migrate(database.config);
  lockHolder = new Database(file);
  // The adapter's real busy wait, made short for the test.
  prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: file, timeout: 50 }) });
  await prisma.plant.create({ data: { id: 1n, name: "Fern" } });
});

afterAll(async () => {
  await prisma?.$disconnect();
  lockHolder?.close();
  await database?.drop();
});

describe("while another connection holds the write lock", () => {
  beforeAll(() => void lockHolder.exec("BEGIN IMMEDIATE"));
  afterAll(() => void lockHolder.exec("ROLLBACK"));

  it("is busy from better-sqlite3 itself", async () => {
    const writer = new Database(file, { timeout: 50 });
    try {
      const error = await failure(() => writer.prepare("INSERT INTO plants (id, name, created_at) VALUES (2, 'Moss', 0)").run());
      expect(error).toMatchObject({ code: "SQLITE_BUSY" });
      expect(databaseOutage(error)).toBe("busy");
    } finally {
      writer.close();
    }
  });

  it("is busy from Prisma, on a raw statement and on a model query", async () => {
    const raw = await failure(() => prisma.$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (2, 'Moss', 0)`);
    expect(raw).toMatchObject({ code: "P2010" });
    expect(databaseOutage(raw)).toBe("busy");
    const model = await failure(() => prisma.plant.create({ data: { id: 2n, name: "Moss" } }));
    expect(databaseOutage(model)).toBe("busy");
  });
});

describe("is no outage", () => {
  it("for a statement SQLite refuses", async () => {
    const reader = new Database(file, { readonly: true });
    try {
      expect(databaseOutage(await failure(() => reader.prepare("SELEC 1")))).toBeUndefined();
    } finally {
      reader.close();
    }
    expect(databaseOutage(await failure(() => prisma.$queryRawUnsafe("SELEC 1")))).toBeUndefined();
  });

  it("for a unique key already taken", async () => {
    const error = await failure(() => prisma.plant.create({ data: { id: 1n, name: "Fern" } }));
    expect(error).toMatchObject({ code: "P2002" });
    expect(databaseOutage(error)).toBeUndefined();
  });

  it("for errors that are not the database's", () => {
    expect(databaseOutage(new TypeError("Cannot read properties of undefined"))).toBeUndefined();
    expect(databaseOutage("ECONNRESET")).toBeUndefined();
    expect(databaseOutage(undefined)).toBeUndefined();
  });
});

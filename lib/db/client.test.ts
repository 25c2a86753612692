import { expect, it } from "vitest";
import { db, disconnectDatabase, Prisma } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// The app's own Prisma client on a real database of the run's engine: the
// settings that make a 200 durable are in force on its connections, and ids
// keep every bit.

const database = setUpTestDatabase();

async function setting(sql: string): Promise<unknown> {
  return Object.values((await db().$queryRawUnsafe<Record<string, unknown>[]>(sql))[0] ?? {})[0];
}

it("commits durably: SQLite in WAL mode with synchronous=FULL, PostgreSQL with synchronous_commit on", async () => {
  if (database.provider === "sqlite") {
    expect(await setting("PRAGMA journal_mode")).toBe("wal");
    expect(Number(await setting("PRAGMA synchronous"))).toBe(2); // FULL
    expect(Number(await setting("PRAGMA foreign_keys"))).toBe(1);
    // SQLite's own busy wait would block the event loop: BUSY is waited out on timers instead (lib/db/sqlite.ts).
    expect(Number(await setting("PRAGMA busy_timeout"))).toBe(0);
    // Raised: the server checkpoints off the event loop (lib/db/sqlite-checkpoints.ts).
    expect(Number(await setting("PRAGMA wal_autocheckpoint"))).toBe(10000);
    return;
  }
  expect(await setting("SHOW synchronous_commit")).toBe("on");
  // Even where the database's own default says otherwise (a new default
  // applies to connections opened afterwards, so the pool starts afresh).
  await database.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET synchronous_commit = off`);
  await disconnectDatabase();
  expect(await setting("SHOW synchronous_commit")).toBe("on");
});

it("keeps BigInt ids exact through the client", async () => {
  for (const id of [9223372036854775807n, -9223372036854775808n, 9007199254740993n]) {
    await db().plant.create({ data: { id, name: "Edge" } });
    expect((await db().plant.findUniqueOrThrow({ where: { id } })).id).toBe(id);
  }
});

it("runs kept statements with each run's own parameters, in transactions and past the number kept", async () => {
  // SQLite's connection keeps statements prepared (lib/db/sqlite.ts); PostgreSQL runs the same checks.
  for (const id of [1n, 2n, 3n]) await db().$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (${id}, ${`Kept ${id}`}, ${new Date()})`;
  for (const id of [3n, 1n, 2n]) {
    expect(await db().$queryRaw`SELECT id, name FROM plants WHERE id = ${id}`).toEqual([{ id, name: `Kept ${id}` }]);
  }
  await expect(
    db().$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (${4n}, ${"Rolled back"}, ${new Date()})`;
      throw new Error("roll back");
    }),
  ).rejects.toThrow("roll back");
  expect(await db().plant.count({ where: { id: 4n } })).toBe(0);
  // More distinct statements than are kept: the oldest make room, and all still run.
  for (let round = 0; round < 2; round++) {
    for (let n = 0; n < 300; n++) {
      const [row] = await db().$queryRaw<{ n: bigint | number }[]>`SELECT ${Prisma.raw(String(n))} + ${round} AS n`;
      expect(Number(row?.n)).toBe(n + round);
    }
  }
});

it("commits a transaction that is only slow, past Prisma's own 5 s, as a loaded machine makes one", async () => {
  // Its statements 6 s apart: under Prisma's default the transaction was rolled back ("expired") and the write lost.
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO plants (id, name, created_at) VALUES (${5n}, ${"Slow"}, ${new Date()})`;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await tx.$executeRaw`UPDATE plants SET name = ${"Slow, then kept"} WHERE id = ${5n}`;
  });
  expect((await db().plant.findUniqueOrThrow({ where: { id: 5n } })).name).toBe("Slow, then kept");
});

import { expect, it } from "vitest";
import { db } from "@/lib/db/client";
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
    expect(Number(await setting("PRAGMA busy_timeout"))).toBe(5000);
    return;
  }
  expect(await setting("SHOW synchronous_commit")).toBe("on");
  // Even where the database's own default says otherwise (a new default
  // applies to connections opened afterwards, so the pool starts afresh).
  await database.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET synchronous_commit = off`);
  await db().$disconnect();
  expect(await setting("SHOW synchronous_commit")).toBe("on");
});

it("keeps BigInt ids exact through the client", async () => {
  for (const id of [9223372036854775807n, -9223372036854775808n, 9007199254740993n]) {
    await db().plant.create({ data: { id, name: "Edge" } });
    expect((await db().plant.findUniqueOrThrow({ where: { id } })).id).toBe(id);
  }
});

import { expect, it } from "vitest";
import { db, isWriteConflict } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// A real PostgreSQL serialization failure, whichever statement it surfaces on,
// is recognised as a lost race: createFirstOwner retries on exactly that, and a
// race lost on a raw statement (P2010 with SQLSTATE 40001) once went unrecognised.

setUpTestDatabase();

function insertUser(tx: Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0], who: string) {
  return tx.$executeRaw`
    INSERT INTO "users" ("id", "email", "name", "role", "password_hash", "created_at")
    VALUES (${who}, ${`${who}@example.com`}, ${who}, 'owner', 'x', ${new Date()})`;
}

it("recognises a SERIALIZABLE write skew that PostgreSQL refuses", async () => {
  let bothHaveRead!: () => void;
  const reads = new Promise<void>((resolve) => (bothHaveRead = resolve));
  let firstCommitted!: () => void;
  const committed = new Promise<void>((resolve) => (firstCommitted = resolve));
  let readers = 0;
  const read = async (tx: Parameters<typeof insertUser>[0]) => {
    await tx.$queryRaw`SELECT count(*) FROM "users"`;
    if (++readers === 2) bothHaveRead();
    await reads;
  };

  const first = db()
    .$transaction(async (tx) => {
      await read(tx);
      await insertUser(tx, "first");
    }, { isolationLevel: "Serializable" })
    .finally(firstCommitted);
  const second = db().$transaction(async (tx) => {
    await read(tx);
    await committed;
    await insertUser(tx, "second");
  }, { isolationLevel: "Serializable" });

  await expect(first).resolves.toBeUndefined();
  const error: unknown = await second.then(() => null, (reason: unknown) => reason);
  expect(error).not.toBeNull();
  expect(isWriteConflict(error)).toBe(true);
  expect(await db().user.count()).toBe(1);
});

it("does not take other failures for a lost race", async () => {
  const error: unknown = await db().$executeRaw`SELECT 1/0`.then(() => null, (reason: unknown) => reason);
  expect(error).not.toBeNull();
  expect(isWriteConflict(error)).toBe(false);
});

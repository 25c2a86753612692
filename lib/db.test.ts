import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

// The app's own Prisma client, on a real SQLite file: the settings that make a
// 200 durable are in force on its connection.

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "plant-store-db-"));
const { db } = await import("@/lib/db");
const { env } = await import("@/lib/env");
const { migrate } = await import("@/lib/migrate");

afterAll(async () => {
  await db().$disconnect();
});

it("runs in WAL mode with synchronous=FULL, foreign keys and a busy timeout", async () => {
  migrate(env().databasePath);
  const pragma = async (name: string) => Object.values((await db().$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`))[0] ?? {})[0];
  expect(await pragma("journal_mode")).toBe("wal");
  expect(Number(await pragma("synchronous"))).toBe(2); // FULL
  expect(Number(await pragma("foreign_keys"))).toBe(1);
  expect(Number(await pragma("busy_timeout"))).toBe(5000);
});

it("keeps BigInt ids exact through the client", async () => {
  const id = 9223372036854775807n;
  await db().plant.create({ data: { id, name: "Edge" } });
  expect((await db().plant.findUniqueOrThrow({ where: { id } })).id).toBe(id);
});

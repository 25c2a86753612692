import { expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { postgresPool } from "@/lib/db/postgres";
import { countPlants, listPlants } from "@/lib/plants/plant-queries";
import { env } from "@/lib/server/env";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// On PostgreSQL the direct reads are named prepared statements
// (lib/db/direct-reads.ts): each text is prepared once per connection and
// then only executed. A connection holds one statement per shape of read, not
// one per request or per value, and the answers are those of fresh queries.

setUpTestDatabase();

it("prepares each shape of read once per connection and reads current rows through it", async () => {
  const pool = () => {
    const { database } = env();
    if (database.provider !== "postgresql") throw new Error("this file runs on PostgreSQL only");
    return postgresPool(database.url);
  };
  // One connection, so the statements it holds can be counted (pg_prepared_statements is per session).
  const client = await pool().connect();
  client.release();
  await db().plant.createMany({ data: [1n, 2n, 3n].map((id) => ({ id, name: `Fern ${id}`, tag: id === 2n ? "shade" : null })) });
  for (let round = 0; round < 5; round++) {
    expect((await listPlants({ limit: 2 })).plants.map((plant) => plant.id)).toEqual([1n, 2n]);
    expect((await listPlants({ limit: 2, after: BigInt(round % 2) })).plants.length).toBe(2);
    expect(await countPlants({ tag: "shade" })).toBe(1n);
  }
  await db().plant.update({ where: { id: 2n }, data: { tag: null } });
  expect(await countPlants({ tag: "shade" })).toBe(0n);

  const statements = new Map<string, string>();
  for (const connection of await Promise.all(Array.from({ length: pool().totalCount }, () => pool().connect()))) {
    const { rows } = await connection.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'plant_store_%'`);
    for (const row of rows) statements.set(row.name, row.statement);
    connection.release();
  }
  // The first page, the page after a cursor, and the count by tag: three texts, whatever the values.
  expect([...statements.values()].sort()).toEqual([
    `SELECT "id", "name", "tag" FROM "plants" ORDER BY "id" LIMIT $1`,
    `SELECT "id", "name", "tag" FROM "plants" WHERE "id" > $1 ORDER BY "id" LIMIT $2`,
    `SELECT count(*) AS "count" FROM "plants" WHERE "tag" = $1`,
  ]);
});

import pg from "pg";
import { testDatabasePrefix, testPostgresUrl, withPostgres } from "./test-database";

// Vitest's global setup for the PostgreSQL projects: the server must answer
// before any test starts (the PostgreSQL half is never skipped: it fails, with
// what to do), and whatever a crashed test left behind is dropped at the end.

export async function setup(): Promise<void> {
  // Set here, before the workers start, so every test database of the run shares the prefix.
  testDatabasePrefix();
  await withPostgres(testPostgresUrl(), (client) => client.query("SELECT 1"));
}

export async function teardown(): Promise<void> {
  await withPostgres(testPostgresUrl(), async (client: pg.Client) => {
    const { rows } = await client.query<{ name: string }>("SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)", [testDatabasePrefix()]);
    for (const { name } of rows) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

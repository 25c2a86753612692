import { afterAll, beforeAll, vi } from "vitest";
import { disconnectDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { env } from "@/lib/server/env";
import { makeTestDatabase, type TestDatabase } from "@/test/support/test-database";

/**
 * For a test file that calls lib/ in its own process: before its tests, the
 * app's configuration points at a fresh database of the run's engine (and a
 * fresh data directory), migrated; after them, the database is dropped.
 * The returned database is usable once the tests run.
 */
export function setUpTestDatabase(options: { env?: () => Record<string, string> } = {}): TestDatabase {
  const database = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(database, await makeTestDatabase(undefined, { migrated: true }));
    for (const name of ["NEXTAUTH_SECRET", "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY", "NEXTAUTH_URL"]) vi.stubEnv(name, "");
    // The file's own settings, read when its earlier hooks have run (a port they chose, say).
    for (const [name, value] of Object.entries({ ...database.env, ...options.env?.() })) vi.stubEnv(name, value);
    await migrate(env().database);
  });
  afterAll(async () => {
    await disconnectDatabase();
    await database.drop();
  });
  return database;
}

/** For tests that each want a database of their own (a CLI run, say): makes them on demand, and drops them all after the file's tests. */
export function freshDatabases(): () => Promise<TestDatabase> {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    await Promise.all(made.map((database) => database.drop()));
  });
  return async () => {
    const database = await makeTestDatabase();
    made.push(database);
    return database;
  };
}

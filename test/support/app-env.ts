import type { TestDatabase } from "./test-database";

// The environment of an app or CLI process under test: production mode, and
// everything taken from the test database (its data directory, its URL and,
// with PostgreSQL, its secrets), whatever the developer's own shell has set.
// Partial: Next's types make NODE_ENV required in ProcessEnv, and overrides need not set it.
export function appEnv(database: Pick<TestDatabase, "env">, extra: Partial<NodeJS.ProcessEnv> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXTAUTH_SECRET: "",
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "",
    ...database.env,
    ...extra,
  };
}

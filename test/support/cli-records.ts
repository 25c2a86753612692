import { userInfo } from "node:os";
import { migrate } from "@/lib/db/migrate";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { type Env, loadEnv } from "@/lib/server/env";
import { appEnv } from "./app-env";
import type { TestDatabase } from "./test-database";
import { sqlTime } from "./webhook-endpoints";

// The activity record an operator CLI command writes beside its change (issue
// 22), for the helpers that make a CLI's rows in the test process
// (api-tokens.ts, accounts.ts): "the CLI", named by the OS user, from no
// request, as lib/activity/cli-attribution.ts attributes it. The CLIs' own
// records are checked in cli/*.test.ts, against the CLIs themselves.

/**
 * What an operator CLI does before its command (cli/run-command.ts): reads its
 * configuration from the environment a CLI run against `database` gets, and
 * migrates the database, which may be fresh (a test that makes its token
 * before it starts its app). loadEnv, not env(): this process serves many
 * databases, and env() keeps the first it reads.
 */
export async function startAsCli(database: TestDatabase): Promise<Env> {
  const config = loadEnv(appEnv(database));
  await migrate(config.database);
  return config;
}

type CliRecord = {
  action: "token.created" | "token.revoked" | "account.created";
  subjectKind: "token" | "account";
  subjectId: string;
  changes: { before?: Record<string, unknown>; after?: Record<string, unknown> };
  at: Date;
};

export async function recordAsCli(database: TestDatabase, { action, subjectKind, subjectId, changes, at }: CliRecord): Promise<void> {
  await database.query(
    `INSERT INTO activity (occurred_at, action, actor_kind, actor_user_id, actor_token_id, actor_name, client_address, user_agent, request_id, subject_kind, subject_id, changes)
     VALUES ($1, $2, 'cli', NULL, NULL, $3, NULL, NULL, NULL, $4, $5, $6)`,
    [sqlTime(database, at), action, osUser(), subjectKind, subjectId, stringifyExactJson(changes)],
  );
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for this uid (a container's): the CLI names no one either.
    return "";
  }
}

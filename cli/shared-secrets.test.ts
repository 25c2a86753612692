import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type CliName, runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { testDatabaseProvider } from "@/test/support/test-database";
import { startWorkerProcess } from "@/test/support/worker-process";

// On PostgreSQL every instance must hold the same NEXTAUTH_SECRET and
// NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, and the web server refuses to start
// without them (test/http/startup.test.ts). The operator's commands ask only
// for what their own work uses: NEXTAUTH_SECRET where a token is signed or a
// webhook secret sealed or opened, the server actions' key nowhere. Each runs
// here as operators run it, on a fresh database, with neither secret set
// unless the row says so.

const freshDatabase = freshDatabases();

const NEITHER = { NEXTAUTH_SECRET: "", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "" };
const AUTH_SECRET_ALONE = { NEXTAUTH_SECRET: "a-shared-secret-of-forty-characters-long", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "" };
const PRIVATE_TARGETS = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" };

const NEEDS_AUTH_SECRET =
  "Invalid configuration (see .env.example):\n" +
  "  NEXTAUTH_SECRET: must be set when DATABASE_URL is PostgreSQL: every instance needs the same value (openssl rand -base64 32)\n";

const WEBHOOK_CREATE = ["create", "--url", "http://127.0.0.1:9/hooks", "--event", "plant.created"];

describe.skipIf(testDatabaseProvider() !== "postgresql")("the secrets each command asks for on PostgreSQL", () => {
  it("db:migrate migrates a new database with neither secret set, and makes no secret of its own", async () => {
    const database = await freshDatabase();
    const run = await runCli("db:migrate", [], { database, env: NEITHER });
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^applied \S+/);
    expect(existsSync(path.join(database.dataDir, "auth-secret"))).toBe(false);
  });

  const withoutSecrets: { command: string; name: CliName; args: (dataDir: string) => string[] }[] = [
    { command: "db copy --to <a new SQLite file>", name: "db", args: (dataDir) => ["copy", "--to", `file:${path.join(dataDir, "copied.db")}`] },
    { command: "token list", name: "token", args: () => ["list"] },
    { command: "webhook list", name: "webhook", args: () => ["list"] },
    { command: "user invite", name: "user", args: () => ["invite", "--email", "ivy@example.com", "--role", "staff"] },
    { command: "user list", name: "user", args: () => ["list"] },
    { command: "activity list", name: "activity", args: () => ["list"] },
  ];

  it.each(withoutSecrets)("$command needs neither secret", async ({ name, args }) => {
    const database = await freshDatabase();
    expect((await runCli("db:migrate", [], { database })).code).toBe(0);
    const run = await runCli(name, args(database.dataDir), { database, env: NEITHER });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path.join(database.dataDir, "auth-secret"))).toBe(false);
  });

  it.each([
    { command: "token create", name: "token" as CliName, args: ["create", "--name", "till"] },
    { command: "webhook create", name: "webhook" as CliName, args: WEBHOOK_CREATE },
  ])("$command needs NEXTAUTH_SECRET alone, and says so before it does anything", async ({ name, args }) => {
    const database = await freshDatabase();
    const refused = await runCli(name, args, { database, env: { ...NEITHER, ...PRIVATE_TARGETS } });
    expect(refused).toMatchObject({ code: 1, stdout: "", stderr: `${name}: ${NEEDS_AUTH_SECRET}` });
    // Not even migrated: the command stopped before its work began.
    expect(await database.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).toEqual([]);

    const run = await runCli(name, args, { database, env: { ...AUTH_SECRET_ALONE, ...PRIVATE_TARGETS } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toBe("");
  });

  it("webhook rotate needs NEXTAUTH_SECRET, which seals the new secret", async () => {
    const database = await freshDatabase();
    const created = await runCli("webhook", WEBHOOK_CREATE, { database, env: { ...AUTH_SECRET_ALONE, ...PRIVATE_TARGETS } });
    const id = /created webhook endpoint (\S+) /.exec(created.stderr)?.[1];
    expect(id, created.stderr).toBeDefined();
    expect(await runCli("webhook", ["rotate", id!], { database, env: NEITHER })).toMatchObject({ code: 1, stderr: `webhook: ${NEEDS_AUTH_SECRET}` });
  });

  it("npm run worker needs NEXTAUTH_SECRET, which opens the secrets it signs with, and not the server actions' key", async () => {
    const database = await freshDatabase();
    expect(await runCli("worker", [], { database, env: NEITHER })).toMatchObject({ code: 1, stderr: `plant-store: ${NEEDS_AUTH_SECRET}` });
    const worker = await startWorkerProcess(database, AUTH_SECRET_ALONE);
    expect(await worker.kill()).toEqual({ code: 0, signal: null });
  });
});

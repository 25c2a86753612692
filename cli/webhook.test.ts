import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";

// The operator's webhook CLI, run as a process against a fresh database, with
// no app running. Private targets are allowed only where a test says so: the
// rule that refuses them is part of what is tested.

const freshDatabase = freshDatabases();
// For the tests that store nothing: one database, made (and migrated, by its first CLI) once.
let unchanged: Promise<TestDatabase> | undefined;
const storeThatStaysEmpty = () => (unchanged ??= freshDatabase());

const PRIVATE_ALLOWED = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" };
const PRIVATE_UNSET = { WEBHOOK_ALLOW_PRIVATE_TARGETS: undefined };

type Listed = {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
};

async function webhookCli(database: TestDatabase, args: string[], env: Partial<NodeJS.ProcessEnv> = PRIVATE_UNSET) {
  const run = await runCli("webhook", args, { database, env });
  if (run.code !== 0) throw new Error(`webhook ${args.join(" ")} exited with ${run.code}:\n${run.stderr}`);
  return run;
}

async function listed(database: TestDatabase): Promise<Listed[]> {
  return JSON.parse((await webhookCli(database, ["list", "--json"])).stdout) as Listed[];
}

type Stored = { url: string; description: string; events: string; enabled: boolean; disabledReason: string | null; disabledAt: number | null; previousSecretExpiresAt: number | null };

/**
 * The endpoints as stored, read straight from the database: what a command changed, checked without
 * another CLI process where the test is not about `list` (which shows them once, in each of its forms).
 */
async function stored(database: TestDatabase): Promise<Stored[]> {
  // Times as text on PostgreSQL: its timestamps have no zone, and pg would read them in the local one.
  const time = (column: string) => (database.provider === "postgresql" ? `${column}::text AS ${column}` : column);
  const rows = await database.query<Record<string, unknown>>(
    `SELECT url, description, events, enabled, disabled_reason, ${time("disabled_at")}, ${time("previous_secret_expires_at")} FROM webhook_endpoints ORDER BY created_at`,
  );
  const utc = (value: unknown) => (value === null ? null : Date.parse(`${String(value).replace(" ", "T").replace(/(Z|[+-]\d\d:\d\d)$/, "")}Z`));
  return rows.map((row) => ({
    url: String(row.url),
    description: String(row.description),
    events: String(row.events),
    enabled: row.enabled === true || row.enabled === 1n,
    disabledReason: row.disabled_reason === null ? null : String(row.disabled_reason),
    disabledAt: utc(row.disabled_at),
    previousSecretExpiresAt: utc(row.previous_secret_expires_at),
  }));
}

/** The id `create` names on stderr. */
const createdId = (stderr: string) => /created webhook endpoint (\S+) /.exec(stderr)![1]!;

describe("webhook CLI", () => {
  // Nine CLI processes one after another, each starting Node and Prisma and migrating: a second or more each on a busy
  // machine. list shows the endpoint once in each form and once disabled; what the other commands changed is read
  // from the database.
  it("create prints only the secret; list shows the endpoint; disable, enable, rotate and delete act on it", async () => {
    const database = await freshDatabase();
    const before = Date.now();
    const created = await webhookCli(
      database,
      ["create", "--url", "http://127.0.0.1:9/hooks", "--event", "plant.created", "--event", "plant.deleted", "--description", "till sync"],
      PRIVATE_ALLOWED,
    );
    const secret = created.stdout.trimEnd();
    expect(created.stdout).toBe(`${secret}\n`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const [endpoint] = await listed(database);
    expect(endpoint).toMatchObject({
      url: "http://127.0.0.1:9/hooks",
      description: "till sync",
      events: ["plant.created", "plant.deleted"],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
    });
    expect(Date.parse(endpoint!.createdAt)).toBeGreaterThanOrEqual(before);
    expect(created.stderr).toContain(endpoint!.id);
    expect(created.stderr).toContain("shown only this once");
    // Sealed at rest: the secret is nowhere in the database in the clear.
    const dump = JSON.stringify(await database.query("SELECT * FROM webhook_endpoints"), (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    expect(dump).toContain("http://127.0.0.1:9/hooks");
    expect(dump).not.toContain(secret.slice("whsec_".length));

    const table = (await webhookCli(database, ["list"])).stdout;
    expect(table).toMatch(/^ID +URL +EVENTS +STATUS +FAILING SINCE +CREATED\n/);
    expect(table).toMatch(new RegExp(`${endpoint!.id} +http://127\\.0\\.0\\.1:9/hooks +plant\\.created plant\\.deleted +enabled +- +`));

    await webhookCli(database, ["disable", endpoint!.id]);
    const [disabled] = await stored(database);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: "disabled by an operator with the CLI" });
    expect(disabled!.disabledAt).toEqual(expect.any(Number));
    expect((await webhookCli(database, ["list"])).stdout).toContain("disabled (disabled by an operator with the CLI) since ");

    await webhookCli(database, ["enable", endpoint!.id]);
    expect((await stored(database))[0]).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });

    const rotated = await webhookCli(database, ["rotate", endpoint!.id]);
    const newSecret = rotated.stdout.trimEnd();
    expect(rotated.stdout).toBe(`${newSecret}\n`);
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect(rotated.stderr).toContain("previous secret keeps signing beside it for 24 hours");
    const expires = (await stored(database))[0]!.previousSecretExpiresAt!;
    expect(expires - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);

    const deleted = await webhookCli(database, ["delete", endpoint!.id]);
    expect(deleted.stderr).toContain(`deleted webhook endpoint ${endpoint!.id}`);
    expect((await webhookCli(database, ["list"])).stdout).toBe("no webhook endpoints\n");
    expect(await stored(database)).toEqual([]);
    // Each change recorded as the CLI's doing, named by the OS user who ran it (issue 22).
    expect(await database.query("SELECT action, actor_kind, actor_name FROM activity WHERE subject_id = $1 ORDER BY id", [endpoint!.id])).toEqual(
      ["webhook.created", "webhook.disabled", "webhook.enabled", "webhook.rotated", "webhook.deleted"].map((action) => ({ action, actor_kind: "cli", actor_name: userInfo().username })),
    );
  });

  it("edit changes what it is given and keeps the rest, recorded as the CLI's; a refused URL changes nothing", async () => {
    const database = await freshDatabase();
    const created = await webhookCli(database, ["create", "--url", "http://127.0.0.1:9/hooks", "--event", "plant.created", "--description", "till sync"], PRIVATE_ALLOWED);
    const id = createdId(created.stderr);
    const edited = await webhookCli(database, ["edit", id, "--event", "plant.created,plant.deleted", "--description", "till and shop"]);
    expect(edited.stdout).toBe("");
    expect(edited.stderr).toBe(`webhook endpoint ${id} now sends plant.created plant.deleted to http://127.0.0.1:9/hooks\n`);
    expect(await stored(database)).toMatchObject([{ url: "http://127.0.0.1:9/hooks", events: "plant.created plant.deleted", description: "till and shop" }]);

    const refused = await runCli("webhook", ["edit", id, "--url", "https://127.0.0.1/moved"], { database, env: PRIVATE_UNSET });
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toContain("webhooks go to public addresses only");
    expect(await stored(database)).toMatchObject([{ url: "http://127.0.0.1:9/hooks", description: "till and shop" }]);
    const records = await database.query<{ action: string; actor_kind: string; changes: string }>("SELECT action, actor_kind, changes FROM activity WHERE subject_id = $1 ORDER BY id", [id]);
    expect(records.map((record) => [record.action, record.actor_kind])).toEqual([
      ["webhook.created", "cli"],
      ["webhook.changed", "cli"],
    ]);
    expect(JSON.parse(records[1]!.changes)).toEqual({
      before: { description: "till sync", events: ["plant.created"] },
      after: { description: "till and shop", events: ["plant.created", "plant.deleted"] },
    });
  });

  it("refuses a private address while private targets are not allowed, with the reason, and stores nothing", async () => {
    const database = await storeThatStaysEmpty();
    const refused = await runCli("webhook", ["create", "--url", "https://127.0.0.1/hooks", "--event", "plant.created"], { database, env: PRIVATE_UNSET });
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe(
      "webhook: url's host 127.0.0.1 resolves to 127.0.0.1, which is in 127.0.0.0/8 (Loopback, RFC 1122 section 3.2.1.3); webhooks go to public addresses only\n",
    );
    const http = await runCli("webhook", ["create", "--url", "http://127.0.0.1:9/hooks", "--event", "plant.created"], { database, env: PRIVATE_UNSET });
    expect(http).toMatchObject({ code: 1, stdout: "", stderr: "webhook: url must be an https:// URL\n" });
    expect(await stored(database)).toEqual([]);
  });

  it.each([
    [["enable", "no-such-id"], "no webhook endpoint with id no-such-id"],
    [["delete", "no-such-id"], "no webhook endpoint with id no-such-id"],
    [["rotate", "no-such-id"], "no webhook endpoint with id no-such-id"],
    [["edit", "no-such-id", "--description", "x"], "no webhook endpoint with id no-such-id"],
  ])("%j fails with exit 1: %s", async (args, message) => {
    const result = await runCli("webhook", args, { database: await storeThatStaysEmpty(), env: PRIVATE_UNSET });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  // A mistake in the arguments is the same on either engine: checked once, on SQLite, side by side.
  describe.skipIf(testDatabaseProvider() !== "sqlite").concurrent("argument errors", () => {
    it.for([
      [["create", "--event", "plant.created"], "--url <url> is required"],
      [["create", "--url", "https://example.com/h"], "--event is required"],
      [["create", "--url", "https://example.com/h", "--event", "plant.watered"], "events are plant.created, plant.updated and plant.deleted"],
      [["create", "--url", "not a url", "--event", "plant.created"], "url must be an absolute URL"],
      [["create", "--url", "https://example.com/h", "--event", "plant.created", "--description", "x".repeat(201)], "description must be at most 200 characters"],
      [["create", "--url", "https://example.com/h", "--event", "plant.created", "--secret", "s"], "Unknown option '--secret'"],
      [["list", "extra"], "Unexpected argument 'extra'"],
      [["disable"], "disable takes exactly one endpoint id"],
      [["rotate", "a", "b"], "rotate takes exactly one endpoint id"],
      [["edit", "--description", "x"], "edit takes exactly one endpoint id"],
      [["edit", "some-id"], "give --url, --event or --description to change"],
      [["fly"], "unknown command fly"],
      [[], "a command is required"],
    ] as const)("%j fails with exit 2 and the usage: %s", async ([args, message], { expect }) => {
      const result = await runCli("webhook", [...args], { database: await freshDatabase(), env: PRIVATE_UNSET });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain("usage:\n  webhook create");
    });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import type { TestDatabase } from "@/test/support/test-database";
import { testDatabaseProvider } from "@/test/support/test-database";
import { sqlTime } from "@/test/support/webhook-endpoints";

// The operator's activity CLI (issue 22), run as a process against a fresh
// database holding records written as the app writes them: newest first,
// filtered by time, person and plant as the owners' page filters, in lines a
// person reads or in JSON with exact ids.

const freshDatabase = freshDatabases();

const MONSTERA = 9007199254740993n;
const HOUR = 3_600_000;

type Row = { at: number; action: string; kind: string; userId?: string; tokenId?: string; name: string; subject: [string, string]; changes: string; address?: string };

let database: TestDatabase;
const ago = (ms: number) => new Date(Date.now() - ms);

async function insertRecord(row: Row): Promise<void> {
  await database.query(
    `INSERT INTO activity (occurred_at, action, actor_kind, actor_user_id, actor_token_id, actor_name, client_address, user_agent, request_id, subject_kind, subject_id, changes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL, $8, $9, $10)`,
    [sqlTime(database, ago(row.at)), row.action, row.kind, row.userId ?? null, row.tokenId ?? null, row.name, row.address ?? null, row.subject[0], row.subject[1], row.changes],
  );
}

const activity = (args: string[]) => runCli("activity", ["list", ...args], { database });

beforeAll(async () => {
  database = await freshDatabase();
  // The CLI migrates the database it is given; then the records are written as the app would have.
  expect((await activity([])).stdout).toBe("no activity records\n");
  for (const [id, email, name] of [
    ["user-ana", "ana@plants.example", "Ana Lopez"],
    ["user-ben", "ben@plants.example", "Ben Okafor"],
  ]) {
    await database.query("INSERT INTO users (id, email, name, role, password_hash) VALUES ($1, $2, $3, 'owner', 'x')", [id, email, name]);
  }
  await insertRecord({ at: 240 * HOUR, action: "plant.created", kind: "person", userId: "user-ana", name: "Ana Lopez", subject: ["plant", String(MONSTERA)], changes: `{"after":{"id":${MONSTERA},"name":"Monstera","tag":"aroid"}}`, address: "203.0.113.7" });
  await insertRecord({ at: 48 * HOUR, action: "plant.updated", kind: "token", userId: "user-ana", tokenId: "token-till", name: "till sync", subject: ["plant", String(MONSTERA)], changes: '{"before":{"name":"Monstera"},"after":{"name":"Monstera deliciosa"}}' });
  await insertRecord({ at: 3 * HOUR, action: "token.created", kind: "cli", name: "ops", subject: ["token", "token-ci"], changes: '{"after":{"label":"ci deploy"}}' });
  await insertRecord({ at: 1 * HOUR, action: "plant.deleted", kind: "person", userId: "user-ben", name: "Ben Okafor", subject: ["plant", String(MONSTERA)], changes: `{"before":{"id":${MONSTERA},"name":"Monstera deliciosa","tag":"aroid"}}` });
});

describe("activity CLI", () => {
  it("lists every record newest first, one tab-separated line each, in words", async () => {
    const run = await activity([]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const [header, ...lines] = run.stdout.trimEnd().split("\n");
    expect(header).toBe("ID\tAT\tACTION\tBY\tSUBJECT\tCHANGES");
    const rows = lines.map((line) => line.split("\t"));
    expect(rows.map((row) => row.length)).toEqual([6, 6, 6, 6]);
    expect(rows.map(([, , action, by, subject, changes]) => [action, by, subject, changes])).toEqual([
      ["plant.deleted", "Ben Okafor", `plant ${MONSTERA}`, `as it was: Id: ${MONSTERA}; Name: Monstera deliciosa; Tag: aroid`],
      ["token.created", "the CLI (OS user ops)", "API token token-ci", "Label: ci deploy"],
      ["plant.updated", "API token “till sync” of Ana Lopez", `plant ${MONSTERA}`, "Name: Monstera → Monstera deliciosa"],
      ["plant.created", "Ana Lopez", `plant ${MONSTERA}`, `Id: ${MONSTERA}; Name: Monstera; Tag: aroid`],
    ]);
    const ids = rows.map(([id]) => BigInt(id!));
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));
    expect(Date.parse(rows[0]![1]!)).toBeGreaterThan(Date.now() - 2 * HOUR);
  });

  it("keeps only what --since, --person (their tokens' changes included), --plant and --action ask for", async () => {
    const actions = async (args: string[]) => {
      const run = await activity(args);
      expect(run, run.stderr).toMatchObject({ code: 0 });
      return run.stdout === "no activity records\n" ? [] : run.stdout.trimEnd().split("\n").slice(1).map((line) => line.split("\t")[2]);
    };
    expect(await actions(["--since", "7d"])).toEqual(["plant.deleted", "token.created", "plant.updated"]);
    expect(await actions(["--since", "2h"])).toEqual(["plant.deleted"]);
    expect(await actions(["--person", "ANA@plants.example"])).toEqual(["plant.updated", "plant.created"]);
    expect(await actions(["--plant", String(MONSTERA)])).toEqual(["plant.deleted", "plant.updated", "plant.created"]);
    // The id a float would round 9007199254740993 to is another plant's.
    expect(await actions(["--plant", "9007199254740992"])).toEqual([]);
    expect(await actions(["--plant", String(MONSTERA), "--since", "7d", "--person", "ben@plants.example"])).toEqual(["plant.deleted"]);
    expect(await actions(["--action", "token.*"])).toEqual(["token.created"]);
  });

  it("--json prints one JSON array, a record a line, with exact ids", async () => {
    const run = await activity(["--json", "--plant", String(MONSTERA)]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("[");
    expect(lines.at(-2)).toBe("]");
    expect(lines).toHaveLength(3 + 2 + 1);
    const records = parseExactJson(run.stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(3);
    expect(records[0]).toEqual({
      id: expect.any(BigInt),
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      action: "plant.deleted",
      by: { kind: "person", name: "Ben Okafor", userId: "user-ben", tokenId: null },
      origin: { clientAddress: null, userAgent: null, requestId: null },
      subject: { kind: "plant", id: String(MONSTERA) },
      before: { id: MONSTERA, name: "Monstera deliciosa", tag: "aroid" },
    });
    expect(records[2]).toMatchObject({ action: "plant.created", origin: { clientAddress: "203.0.113.7" }, after: { id: MONSTERA, name: "Monstera", tag: "aroid" } });
    expect(run.stdout).toContain(`"id":${MONSTERA}`);
    expect((await activity(["--json", "--plant", "1"])).stdout).toBe("[]\n");
  });

  // A mistake in the arguments is the same on either engine: checked once, on SQLite, side by side.
  describe.skipIf(testDatabaseProvider() !== "sqlite").concurrent("argument errors", () => {
    it.for([
      [["list", "--person", "nobody@plants.example"], "no account has the email nobody@plants.example"],
      [["list", "--plant", "1.5"], "--plant must be a plant's id: an integer from -9223372036854775808 to 9223372036854775807"],
      [["list", "--plant", "9223372036854775808"], "--plant must be a plant's id"],
      [["list", "--since", "soon"], "--since soon is not a duration (e.g. 30m, 12h, 7d)"],
      [["list", "--since", "7"], "--since 7 is not a duration"],
      [["list", "--action", "plant.eaten"], "--action must be a kind of change or a family of them: plant.created,"],
      [["list", "--limit", "5"], "Unknown option '--limit'"],
      [["fly"], "unknown command fly"],
      [[], "a command is required"],
    ] as const)("%j fails with exit 2: %s", async ([args, message], { expect }) => {
      const result = await runCli("activity", [...args], { database: await freshDatabase() });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain("usage:");
    });
  });
});

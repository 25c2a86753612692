import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { runCli, tokenCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { testDatabaseProvider } from "@/test/support/test-database";

// The operator's token CLI, run as a process against a fresh database, with no
// app running.

const freshDatabase = freshDatabases();

type Listed = { id: string; label: string; createdAt: string; scopes: string[]; status: string; expiresAt: string; revokedAt: string | null; lastUsedAt: string | null };

describe("token CLI", () => {
  it("create prints only the token; list shows it; revoke marks it; the token is never stored", async () => {
    const database = await freshDatabase();
    const before = Date.now();
    const created = await tokenCli(database, ["create", "--name", "ci deploy", "--scope", "plants:write", "--expires", "2d"]);
    const token = created.stdout.trimEnd();
    expect(created.stdout).toBe(`${token}\n`);
    expect(token).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/); // a compact JWE

    const [listed] = JSON.parse((await tokenCli(database, ["list", "--json"])).stdout) as Listed[];
    expect(listed).toMatchObject({ label: "ci deploy", scopes: ["plants:write"], status: "active", revokedAt: null, lastUsedAt: null });
    expect(Date.parse(listed!.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(listed!.expiresAt) - Date.parse(listed!.createdAt)).toBe(2 * 86_400_000);
    expect(created.stderr).toContain(listed!.id);

    const table = (await tokenCli(database, ["list"])).stdout;
    expect(table).toMatch(/^ID +LABEL +SCOPES +STATUS +EXPIRES +LAST USED\n/);
    expect(table).toContain("ci deploy");

    await tokenCli(database, ["revoke", listed!.id]);
    const [revoked] = JSON.parse((await tokenCli(database, ["list", "--json"])).stdout) as Listed[];
    expect(revoked).toMatchObject({ id: listed!.id, status: "revoked", revokedAt: expect.any(String) });
    // Recorded as the CLI's doing, named by the OS user who ran it (issue 22).
    expect(await database.query("SELECT action, actor_kind, actor_name FROM activity WHERE subject_id = $1 ORDER BY id", [listed!.id])).toEqual([
      { action: "token.created", actor_kind: "cli", actor_name: userInfo().username },
      { action: "token.revoked", actor_kind: "cli", actor_name: userInfo().username },
    ]);

    const dump = JSON.stringify(await database.query("SELECT * FROM api_tokens"), (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.split(".")[4]);
  });

  it("defaults to a read-only token that lives 30 days", async () => {
    const database = await freshDatabase();
    await tokenCli(database, ["create", "--name", "reader"]);
    const [listed] = JSON.parse((await tokenCli(database, ["list", "--json"])).stdout) as Listed[];
    expect(listed!.scopes).toEqual(["plants:read"]);
    expect(Date.parse(listed!.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it("revoking a token no one has fails with exit 1", async () => {
    const result = await runCli("token", ["revoke", "no-such-id"], { database: await freshDatabase() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no token with id no-such-id");
  });

  // A mistake in the arguments is the same on either engine: checked once, on SQLite, side by side.
  describe.skipIf(testDatabaseProvider() !== "sqlite").concurrent("argument errors", () => {
    it.for([
      [["create"], "--name <label> is required"],
      [["create", "--name", "x", "--scope", "plants:admin"], "unknown scope plants:admin"],
      [["create", "--name", "x", "--expires", "soon"], "--expires soon is not a duration"],
      [["create", "--name", "x", "--expires", "400d"], "is not a duration from 1s to 366d"],
      [["revoke"], "revoke takes exactly one token id"],
      [["fly"], "unknown command fly"],
    ] as const)("%j fails with exit 2: %s", async ([args, message], { expect }) => {
      const result = await runCli("token", [...args], { database: await freshDatabase() });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    });
  });
});

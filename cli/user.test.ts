import { describe, expect, it } from "vitest";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { testDatabaseProvider } from "@/test/support/test-database";

// The operator's account CLI, run as a process with the password on stdin,
// as scripts use it (the no-echo prompt needs a terminal and is not run here).

const freshDatabase = freshDatabases();

describe("user CLI", () => {
  it("creates an account from a password on stdin, storing only an argon2id hash", async () => {
    const database = await freshDatabase();
    const password = "a long enough passphrase";
    const created = await runCli("user", ["create", "--email", "Ana@Example.com", "--role", "owner", "--name", "Ana"], { database, stdin: `${password}\n` });
    expect(created).toMatchObject({ code: 0, stderr: expect.stringMatching(/^created owner ana@example.com \(/) });
    const rows = await database.query("SELECT email, name, role, password_hash FROM users");
    expect(rows).toEqual([{ email: "ana@example.com", name: "Ana", role: "owner", password_hash: expect.stringMatching(/^\$argon2id\$/) }]);
    expect(JSON.stringify(rows)).not.toContain(password);

    const again = await runCli("user", ["create", "--email", "ana@example.com", "--role", "staff"], { database, stdin: `${password}\n` });
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining("an account with email ana@example.com already exists") });
  });

  // A mistake in the arguments is the same on either engine: checked once, on SQLite, side by side.
  describe.skipIf(testDatabaseProvider() !== "sqlite").concurrent("argument errors", () => {
    it.for([
      [["fly"], "unknown command fly"],
      [["create", "--role", "staff"], "--email is required"],
      [["create", "--email", "a@b.co", "--role", "staff", "--password", "x"], "there is no --password flag"],
      [["create", "--email", "a@b.co", "--role", "king"], "usage:"],
    ] as const)("%j fails with exit 2: %s", async ([args, message], { expect }) => {
      const result = await runCli("user", [...args], { database: await freshDatabase() });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    });
  });
});

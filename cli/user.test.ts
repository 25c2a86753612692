import { describe, expect, it } from "vitest";
import { runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";

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

  it.each([
    [["fly"], 2, "unknown command fly"],
    [["create", "--role", "staff"], 2, "--email is required"],
    [["create", "--email", "a@b.co", "--role", "staff", "--password", "x"], 2, "there is no --password flag"],
    [["create", "--email", "a@b.co", "--role", "king"], 2, "usage:"],
  ])("%j fails with exit %i: %s", async (args, code, message) => {
    const result = await runCli("user", args, { database: await freshDatabase() });
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });
});

import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appEnv, makeDataDir } from "@/lib/testing/app-server";
import { withDatabase } from "@/lib/testing/database";

// The operator's account CLI, run as a process with the password on stdin,
// as scripts use it (the no-echo prompt needs a terminal and is not run here).

const TSX = path.resolve(import.meta.dirname, "../../node_modules/tsx/dist/cli.mjs");

function user(dataDir: string, args: string[], stdin = ""): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [TSX, path.resolve(import.meta.dirname, "user.ts"), ...args], { env: appEnv(dataDir) }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

describe("user CLI", () => {
  it("creates an account from a password on stdin, storing only an argon2id hash", async () => {
    const dataDir = makeDataDir();
    const password = "a long enough passphrase";
    const created = await user(dataDir, ["create", "--email", "Ana@Example.com", "--role", "owner", "--name", "Ana"], `${password}\n`);
    expect(created).toMatchObject({ code: 0, stderr: expect.stringMatching(/^created owner ana@example.com \(/) });
    const rows = withDatabase(path.join(dataDir, "plant-store.db"), (sqlite) => sqlite.prepare("SELECT email, name, role, password_hash FROM users").all());
    expect(rows).toEqual([{ email: "ana@example.com", name: "Ana", role: "owner", password_hash: expect.stringMatching(/^\$argon2id\$/) }]);
    expect(JSON.stringify(rows)).not.toContain(password);

    const again = await user(dataDir, ["create", "--email", "ana@example.com", "--role", "staff"], `${password}\n`);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining("an account with email ana@example.com already exists") });
  });

  it.each([
    [["fly"], 2, "unknown command fly"],
    [["create", "--role", "staff"], 2, "--email is required"],
    [["create", "--email", "a@b.co", "--role", "staff", "--password", "x"], 2, "there is no --password flag"],
    [["create", "--email", "a@b.co", "--role", "king"], 2, "usage:"],
  ])("%j fails with exit %i: %s", async (args, code, message) => {
    const result = await user(makeDataDir(), args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });
});

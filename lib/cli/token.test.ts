import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { appEnv, makeDataDir, tokenCli } from "@/lib/testing/app-server";
import { withDatabase } from "@/lib/testing/database";

// The operator's token CLI, run as a process against a fresh data directory,
// with no app running.

type Listed = { id: string; label: string; createdAt: string; scopes: string[]; status: string; expiresAt: string; revokedAt: string | null; lastUsedAt: string | null };

async function failing(dataDir: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const tsx = path.resolve(import.meta.dirname, "../../node_modules/tsx/dist/cli.mjs");
  try {
    await promisify(execFile)(process.execPath, [tsx, path.resolve(import.meta.dirname, "token.ts"), ...args], { env: appEnv(dataDir) });
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
  throw new Error(`token ${args.join(" ")} succeeded`);
}

describe("token CLI", () => {
  it("create prints only the token; list shows it; revoke marks it; the token is never stored", async () => {
    const dataDir = makeDataDir();
    const before = Date.now();
    const created = await tokenCli(dataDir, ["create", "--name", "ci deploy", "--scope", "plants:write", "--expires", "2d"]);
    const token = created.stdout.trimEnd();
    expect(created.stdout).toBe(`${token}\n`);
    expect(token).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/); // a compact JWE

    const [listed] = JSON.parse((await tokenCli(dataDir, ["list", "--json"])).stdout) as Listed[];
    expect(listed).toMatchObject({ label: "ci deploy", scopes: ["plants:write"], status: "active", revokedAt: null, lastUsedAt: null });
    expect(Date.parse(listed!.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(listed!.expiresAt) - Date.parse(listed!.createdAt)).toBe(2 * 86_400_000);
    expect(created.stderr).toContain(listed!.id);

    const table = (await tokenCli(dataDir, ["list"])).stdout;
    expect(table).toMatch(/^ID +LABEL +SCOPES +STATUS +EXPIRES +LAST USED\n/);
    expect(table).toContain("ci deploy");

    await tokenCli(dataDir, ["revoke", listed!.id]);
    const [revoked] = JSON.parse((await tokenCli(dataDir, ["list", "--json"])).stdout) as Listed[];
    expect(revoked).toMatchObject({ id: listed!.id, status: "revoked", revokedAt: expect.any(String) });

    const dump = withDatabase(path.join(dataDir, "plant-store.db"), (sqlite) => JSON.stringify(sqlite.prepare("SELECT * FROM api_tokens").all(), (_, v) => (typeof v === "bigint" ? String(v) : v)));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.split(".")[4]);
  });

  it("defaults to a read-only token that lives 30 days", async () => {
    const dataDir = makeDataDir();
    await tokenCli(dataDir, ["create", "--name", "reader"]);
    const [listed] = JSON.parse((await tokenCli(dataDir, ["list", "--json"])).stdout) as Listed[];
    expect(listed!.scopes).toEqual(["plants:read"]);
    expect(Date.parse(listed!.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it.each([
    [["create"], 2, "--name <label> is required"],
    [["create", "--name", "x", "--scope", "plants:admin"], 2, "unknown scope plants:admin"],
    [["create", "--name", "x", "--expires", "soon"], 2, "--expires soon is not a duration"],
    [["create", "--name", "x", "--expires", "400d"], 2, "is not a duration from 1s to 366d"],
    [["revoke"], 2, "revoke takes exactly one token id"],
    [["revoke", "no-such-id"], 1, "no token with id no-such-id"],
    [["fly"], 2, "unknown command fly"],
  ])("%j fails with exit %i: %s", async (args, code, message) => {
    const result = await failing(makeDataDir(), args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });
});

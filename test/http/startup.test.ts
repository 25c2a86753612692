import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { startApp } from "@/test/support/app-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

// Configuration is validated once at start-up: a bad value stops the server
// with a message naming the variable, before it serves anything.

const NO_SHARED_SECRETS = { NEXTAUTH_SECRET: "", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "" };

it.each([
  [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  [{ NEXTAUTH_SECRET: "too short" }, "NEXTAUTH_SECRET: must be at least 32 characters"],
  [{ DATABASE_URL: "mysql://localhost/plants" }, "DATABASE_URL: must be a SQLite file URL such as file:./data/plant-store.db or a PostgreSQL URL"],
  [{ DATABASE_URL: "postgres://localhost/plants", ...NO_SHARED_SECRETS }, "NEXTAUTH_SECRET: must be set when DATABASE_URL is PostgreSQL"],
  [{ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "c2hvcnQ=" }, "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: must be a base64 AES key of 16, 24 or 32 bytes"],
])("the server refuses to start with %o", async (env, message) => {
  const failure = startApp({ env });
  await expect(failure).rejects.toThrow(/the app exited with 1/);
  await expect(failure).rejects.toThrow(`plant-store: Invalid configuration (see .env.example):\n  ${message}`);
});

it("says which shared secrets PostgreSQL needs, and that the database URL's password never shows", async () => {
  const failure = startApp({ env: { DATABASE_URL: "postgresql://plants:hunter2-secret@localhost/plants", ...NO_SHARED_SECRETS } });
  await expect(failure).rejects.toThrow(/NEXTAUTH_SECRET: must be set[^\n]*\n {2}NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: must be set/);
  await expect(failure).rejects.not.toThrow(/hunter2/);
});

it("stops, saying so, when the PostgreSQL server cannot be reached; the password stays out of the log", async () => {
  const secrets = { NEXTAUTH_SECRET: "s".repeat(40), NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") };
  // Port 1 on loopback: nothing listens there.
  const failure = startApp({ env: { DATABASE_URL: "postgresql://plants:hunter2-secret@127.0.0.1:1/plants", ...secrets } });
  await expect(failure).rejects.toThrow(/the app exited with 1:[\s\S]*"detail":"[^"]*ECONNREFUSED[^"]*"[^\n]*"message":"start-up failed"/);
  await expect(failure).rejects.not.toThrow(/hunter2/);
});

it("npm start without a build says to build first, and starts nothing", () => {
  // The prestart check, run where package.json is but no build is.
  const bare = mkdtempSync(path.join(tmpdir(), "plant-store-unbuilt-"));
  try {
    copyFileSync(path.join(ROOT, "package.json"), path.join(bare, "package.json"));
    const run = spawnSync("npm", ["run", "--silent", "prestart"], { cwd: bare, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("plant-store: no build to start; run npm run build first");
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
  // Where the build is (this project's HTTP tests run after one), the check lets npm start go on.
  expect(spawnSync("npm", ["run", "--silent", "prestart"], { cwd: ROOT, encoding: "utf8" }).status).toBe(0);
});

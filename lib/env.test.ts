import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "@/lib/env";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "plant-store-env-"));

describe("loadEnv", () => {
  it("needs no configuration: SQLite under DATA_DIR and a generated secret kept there", () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env.databasePath).toBe(path.join(dir, "plant-store.db"));
    expect(env.port).toBe(3000);
    const secretFile = path.join(dir, "auth-secret");
    expect(env.authSecret).toBe(readFileSync(secretFile, "utf8"));
    expect(env.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    // Every later start, and the CLIs, read the same secret.
    expect(loadEnv({ DATA_DIR: dir }).authSecret).toBe(env.authSecret);
  });

  it("prefers a given secret and writes no file", () => {
    const dir = dataDir();
    const secret = "s".repeat(40);
    expect(loadEnv({ DATA_DIR: dir, NEXTAUTH_SECRET: secret }).authSecret).toBe(secret);
    expect(() => statSync(path.join(dir, "auth-secret"))).toThrow();
  });

  it("treats empty variables as unset", () => {
    const dir = dataDir();
    expect(loadEnv({ DATA_DIR: dir, PORT: "", DATABASE_URL: "" }).port).toBe(3000);
  });

  it("resolves a file: DATABASE_URL to an absolute path", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "file:./some/where.db" }).databasePath).toBe(path.resolve("some/where.db"));
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/x" }, "DATABASE_URL: must be a SQLite file URL"],
    [{ NEXTAUTH_SECRET: "short" }, "NEXTAUTH_SECRET: must be at least 32 characters"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  ])("refuses %o, naming the variable", (vars, message) => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), ...vars })).toThrow(EnvError);
    expect(() => loadEnv({ DATA_DIR: dataDir(), ...vars })).toThrow(message);
  });
});

import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, EnvError, loadEnv, requireSharedSecrets, WEB_SERVER_SECRETS } from "@/lib/server/env";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "plant-store-env-"));

const POSTGRES_URL = "postgresql://plants:secret@db.internal:5432/plant_store";
const SHARED_SECRETS = { NEXTAUTH_SECRET: "s".repeat(40), NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") };

describe("loadEnv", () => {
  it("needs no configuration: SQLite under DATA_DIR and a generated secret kept there", () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env.database).toEqual({ provider: "sqlite", path: path.join(dir, "plant-store.db") });
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

  it("reads WEB_CONCURRENCY as auto (the default), or a whole number of workers, and refuses anything else", () => {
    const dir = dataDir();
    expect(loadEnv({ DATA_DIR: dir }).workers).toBe("auto");
    expect(loadEnv({ DATA_DIR: dir, WEB_CONCURRENCY: " AUTO " }).workers).toBe("auto");
    expect(loadEnv({ DATA_DIR: dir, WEB_CONCURRENCY: "1" }).workers).toBe(1);
    expect(loadEnv({ DATA_DIR: dir, WEB_CONCURRENCY: "16" }).workers).toBe(16);
    for (const bad of ["0", "-2", "1.5", "many", "2x", "1025"]) {
      expect(() => loadEnv({ DATA_DIR: dir, WEB_CONCURRENCY: bad }), bad).toThrow(/WEB_CONCURRENCY: must be a whole number of server processes/);
    }
  });

  it("reads DATABASE_POOL_SIZE, 10 unless set, and refuses what is no number of connections", () => {
    const dir = dataDir();
    expect(loadEnv({ DATA_DIR: dir }).databasePoolSize).toBe(10);
    expect(loadEnv({ DATA_DIR: dir, DATABASE_POOL_SIZE: "4" }).databasePoolSize).toBe(4);
    for (const bad of ["0", "2.5", "ten", "1001"]) {
      expect(() => loadEnv({ DATA_DIR: dir, DATABASE_POOL_SIZE: bad }), bad).toThrow(/DATABASE_POOL_SIZE: must be a whole number of connections/);
    }
  });

  it("resolves a file: DATABASE_URL to an absolute path", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "file:./some/where.db" }).database).toEqual({ provider: "sqlite", path: path.resolve("some/where.db") });
  });

  it.each(["postgresql://", "postgres://"])("takes a %s DATABASE_URL as PostgreSQL, with the shared secrets set", (scheme) => {
    const url = POSTGRES_URL.replace("postgresql://", scheme);
    const env = loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: url, ...SHARED_SECRETS });
    expect(env.database).toEqual({ provider: "postgresql", url });
    expect(env.authSecret).toBe(SHARED_SECRETS.NEXTAUTH_SECRET);
  });

  it("sends email only with SMTP_URL, MAIL_FROM and NEXTAUTH_URL, and refuses SMTP_URL without the others or a URL that is not SMTP", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).mail).toBeNull();
    const mail = { SMTP_URL: "smtps://user:secret@mail.shop.example:465", MAIL_FROM: "Plant Store <plants@shop.example>", NEXTAUTH_URL: "https://plants.shop.example" };
    expect(loadEnv({ DATA_DIR: dataDir(), ...mail }).mail).toEqual({ smtpUrl: mail.SMTP_URL, from: mail.MAIL_FROM });
    expect(() => loadEnv({ DATA_DIR: dataDir(), SMTP_URL: mail.SMTP_URL })).toThrow(/MAIL_FROM: must be set when SMTP_URL is.*\n.*NEXTAUTH_URL: must be set when SMTP_URL is: the address emailed links lead to/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), ...mail, SMTP_URL: "https://mail.shop.example" })).toThrow("SMTP_URL: must be an smtp:// or smtps:// URL");
  });

  it("with PostgreSQL, asks for the secrets every instance must share only of the work that uses them, naming each", () => {
    const dir = dataDir();
    // db:migrate and db read the configuration and use neither secret.
    const config = loadEnv({ DATA_DIR: dir, DATABASE_URL: POSTGRES_URL });
    expect(config.missingSharedSecrets).toEqual(["NEXTAUTH_SECRET", "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY"]);
    const secretLine = (name: string) => `  ${name}: must be set when DATABASE_URL is PostgreSQL: every instance needs the same value (openssl rand -base64 32)`;
    // The web server uses both.
    expect(() => requireSharedSecrets(WEB_SERVER_SECRETS, config)).toThrow(
      new EnvError(["Invalid configuration (see .env.example):", secretLine("NEXTAUTH_SECRET"), secretLine("NEXT_SERVER_ACTIONS_ENCRYPTION_KEY")].join("\n")),
    );
    // A token or a webhook secret is sealed with NEXTAUTH_SECRET, which is never made up for this machine alone.
    const sealing = new EnvError(["Invalid configuration (see .env.example):", secretLine("NEXTAUTH_SECRET")].join("\n"));
    expect(() => requireSharedSecrets(["NEXTAUTH_SECRET"], config)).toThrow(sealing);
    expect(() => config.authSecret).toThrow(sealing);
    expect(() => statSync(path.join(dir, "auth-secret"))).toThrow();

    const withAuthSecret = loadEnv({ DATA_DIR: dir, DATABASE_URL: POSTGRES_URL, NEXTAUTH_SECRET: SHARED_SECRETS.NEXTAUTH_SECRET });
    requireSharedSecrets(["NEXTAUTH_SECRET"], withAuthSecret);
    expect(withAuthSecret.authSecret).toBe(SHARED_SECRETS.NEXTAUTH_SECRET);
    expect(() => requireSharedSecrets(WEB_SERVER_SECRETS, withAuthSecret)).toThrow(/^(?!.*NEXTAUTH_SECRET:).*NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: must be set/s);
    requireSharedSecrets(WEB_SERVER_SECRETS, loadEnv({ DATA_DIR: dir, DATABASE_URL: POSTGRES_URL, ...SHARED_SECRETS }));
  });

  it("with SQLite, asks for no secret: one machine keeps NEXTAUTH_SECRET in DATA_DIR, and Next.js makes its own key", () => {
    const config = loadEnv({ DATA_DIR: dataDir() });
    expect(config.missingSharedSecrets).toEqual([]);
    requireSharedSecrets(WEB_SERVER_SECRETS, config);
  });

  it("keeps activity records 400 days and sign-ins 90 by default; reads durations with their unit, and forever", () => {
    const DAY = 86_400_000;
    const retention = (vars: Record<string, string>) => loadEnv({ DATA_DIR: dataDir(), ...vars }).activityRetention;
    expect(retention({})).toEqual({ recordsMs: 400 * DAY, signInsMs: 90 * DAY });
    expect(retention({ ACTIVITY_RETENTION: "2y", ACTIVITY_SIGN_IN_RETENTION: "12h" })).toEqual({ recordsMs: 730.5 * DAY, signInsMs: 12 * 3_600_000 });
    expect(retention({ ACTIVITY_RETENTION: " Forever ", ACTIVITY_SIGN_IN_RETENTION: "52w" })).toEqual({ recordsMs: null, signInsMs: 364 * DAY });
    expect(retention({ ACTIVITY_RETENTION: "forever" })).toEqual({ recordsMs: null, signInsMs: 90 * DAY });
    expect(retention({ ACTIVITY_RETENTION: "forever", ACTIVITY_SIGN_IN_RETENTION: "forever" })).toEqual({ recordsMs: null, signInsMs: null });
    // Unset, the sign-ins' period follows a shorter ACTIVITY_RETENTION down.
    expect(retention({ ACTIVITY_RETENTION: "30 days" })).toEqual({ recordsMs: 30 * DAY, signInsMs: 30 * DAY });
    expect(retention({ ACTIVITY_RETENTION: "30d", ACTIVITY_SIGN_IN_RETENTION: "30d" })).toEqual({ recordsMs: 30 * DAY, signInsMs: 30 * DAY });
  });

  it.each([
    [{ ACTIVITY_SIGN_IN_RETENTION: "180d", ACTIVITY_RETENTION: "30d" }],
    [{ ACTIVITY_SIGN_IN_RETENTION: "forever" }],
  ])("refuses a sign-in retention longer than ACTIVITY_RETENTION: %o", (vars) => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), ...vars })).toThrow(
      "ACTIVITY_SIGN_IN_RETENTION: must not be longer than ACTIVITY_RETENTION: sign-in records may be kept shorter than the other records, not longer",
    );
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/x" }, "DATABASE_URL: must be a SQLite file URL such as file:./data/plant-store.db or a PostgreSQL URL"],
    [{ DATABASE_URL: "postgresql://" }, "DATABASE_URL: must be a SQLite file URL"],
    [{ DATABASE_URL: "./data/plants.db" }, "DATABASE_URL: must be a SQLite file URL"],
    [{ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "not base64!" }, "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: must be a base64 AES key of 16, 24 or 32 bytes"],
    [{ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: Buffer.alloc(20).toString("base64") }, "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: must be a base64 AES key"],
    [{ NEXTAUTH_SECRET: "short" }, "NEXTAUTH_SECRET: must be at least 32 characters"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    // A bare number would be milliseconds to ms; 6m is six minutes, not months.
    [{ ACTIVITY_RETENTION: "400" }, "ACTIVITY_RETENTION: must be a duration of at least an hour with its unit, such as 400d, 52w or 12h (m is minutes: write months as days), or forever"],
    [{ ACTIVITY_RETENTION: "6m" }, "ACTIVITY_RETENTION: must be a duration of at least an hour"],
    [{ ACTIVITY_RETENTION: "-5d" }, "ACTIVITY_RETENTION: must be a duration of at least an hour"],
    [{ ACTIVITY_RETENTION: "never" }, "ACTIVITY_RETENTION: must be a duration of at least an hour"],
    [{ ACTIVITY_SIGN_IN_RETENTION: "90" }, "ACTIVITY_SIGN_IN_RETENTION: must be a duration of at least an hour"],
  ])("refuses %o, naming the variable", (vars, message) => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), ...vars })).toThrow(EnvError);
    expect(() => loadEnv({ DATA_DIR: dataDir(), ...vars })).toThrow(message);
  });

  it("is documented by .env.example: every variable, and every value shown there is valid", () => {
    const example = readFileSync(path.join(process.cwd(), ".env.example"), "utf8");
    // Set (NAME=value) or shown commented out (# NAME=value).
    const shown = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [name!, value!] as const);
    const documented = new Set(shown.map(([name]) => name));
    expect(ENV_VARIABLES.filter((name) => name !== "NODE_ENV" && !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !ENV_VARIABLES.includes(name))).toEqual([]);
    for (const [name, value] of shown) {
      // Some variables need their companions: PostgreSQL the shared secrets, SMTP_URL a sender.
      const secrets = name === "DATABASE_URL" && value.startsWith("postgres") ? SHARED_SECRETS : name === "SMTP_URL" ? { MAIL_FROM: "plants@shop.example", NEXTAUTH_URL: "https://plants.shop.example" } : {};
      expect(() => loadEnv({ DATA_DIR: dataDir(), ...secrets, [name]: value }), `${name}=${value}`).not.toThrow();
    }
  });
});

import { createHash, randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { sealEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import { type CliRun, runCli } from "@/test/support/cli";
import { freshDatabases } from "@/test/support/set-up-test-database";
import { type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";
import { startSmtpServer } from "@/test/support/smtp-test-server";
import { sqlTime } from "@/test/support/webhook-endpoints";

// The operator's account CLI, run as a process with the password on stdin,
// as scripts use it (the no-echo prompt needs a terminal and is not run here).

const freshDatabase = freshDatabases();

// Where the links point: NEXTAUTH_URL, whatever the developer's shell has set.
const APP_URL = { NEXTAUTH_URL: "https://plants.example" };

function user(database: TestDatabase, args: string[], env: Partial<NodeJS.ProcessEnv> = APP_URL): Promise<CliRun> {
  return runCli("user", args, { database, env });
}

let accountsAdded = 0;

/** An account written straight into a migrated database (these tests are about the team, not passwords), each a millisecond after the last, as the listing orders them. */
async function addAccount(database: TestDatabase, email: string, role: "owner" | "staff"): Promise<void> {
  await database.query("INSERT INTO users (id, email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, 'not a hash', $5)", [
    randomUUID(),
    email,
    email.split("@")[0],
    role,
    sqlTime(database, new Date(Date.now() - 60_000 + accountsAdded++)),
  ]);
}

/**
 * A migrated database holding one owner. Migrated here rather than by a first
 * CLI run: each run costs seconds on a busy machine, and a test's runs must fit
 * in its 30 s.
 */
async function teamWithOwner(email = "olive@example.com"): Promise<TestDatabase> {
  const database = await freshDatabase();
  await migrate(database.config);
  await addAccount(database, email, "owner");
  return database;
}

/** The activity record's rows, oldest first, as the CLI wrote them. */
async function activity(database: TestDatabase): Promise<{ action: string; by: string; subject: string; changes: unknown }[]> {
  const rows = await database.query<{ action: string; actor_kind: string; actor_name: string; subject_kind: string; subject_id: string; changes: string }>(
    "SELECT action, actor_kind, actor_name, subject_kind, subject_id, changes FROM activity ORDER BY id",
  );
  return rows.map((row) => ({ action: row.action, by: `${row.actor_kind}:${row.actor_name}`, subject: `${row.subject_kind}:${row.subject_id}`, changes: JSON.parse(row.changes) }));
}

/** The CLI, named by the OS user running these tests, as the operator's runs are. */
const BY_CLI = `cli:${userInfo().username}`;

const accountIdOf = async (database: TestDatabase, email: string) => (await database.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email]))[0]!.id;

const SECRET = "[A-Za-z0-9_-]{43}";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("user CLI", () => {
  it("creates an account from a password on stdin, storing only an argon2id hash", async () => {
    const database = await freshDatabase();
    const password = "a long enough passphrase";
    const created = await runCli("user", ["create", "--email", "Ana@Example.com", "--role", "owner", "--name", "Ana"], { database, stdin: `${password}\n` });
    expect(created).toMatchObject({ code: 0, stderr: expect.stringMatching(/^created owner ana@example.com \(/) });
    const rows = await database.query("SELECT email, name, role, password_hash FROM users");
    expect(rows).toEqual([{ email: "ana@example.com", name: "Ana", role: "owner", password_hash: expect.stringMatching(/^\$argon2id\$/) }]);
    expect(JSON.stringify(rows)).not.toContain(password);
    const recorded = [
      { action: "account.created", by: BY_CLI, subject: `account:${await accountIdOf(database, "ana@example.com")}`, changes: { after: { name: "Ana", email: "ana@example.com", role: "owner" } } },
    ];
    expect(await activity(database)).toEqual(recorded);
    expect(JSON.stringify(await activity(database))).not.toContain(password);

    const again = await runCli("user", ["create", "--email", "ana@example.com", "--role", "staff"], { database, stdin: `${password}\n` });
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining("an account with email ana@example.com already exists") });
    expect(await activity(database)).toEqual(recorded);
  });

  it("refuses a password that is easy to guess, saying why", async () => {
    const database = await freshDatabase();
    const weak = await runCli("user", ["create", "--email", "sam@example.com", "--role", "staff"], { database, stdin: "password1234\n" });
    expect(weak).toMatchObject({ code: 1, stderr: "user: password is too easy to guess: this is similar to a commonly used password\n" });
    const own = await runCli("user", ["create", "--email", "florentina.blackwood@example.com", "--role", "staff"], { database, stdin: "florentina.blackwood\n" });
    expect(own).toMatchObject({ code: 1, stderr: expect.stringContaining("the account's name or email") });
    expect(await database.query("SELECT email FROM users")).toEqual([]);
  });

  it("with a mail server configured, invite and reset-password also email the link they print", async () => {
    const database = await teamWithOwner();
    const smtp = await startSmtpServer();
    try {
      const mail = { ...APP_URL, SMTP_URL: smtp.url, MAIL_FROM: "plants@shop.example" };
      const invited = await user(database, ["invite", "--email", "ivy@example.com", "--role", "staff"], mail);
      expect(invited.stderr).toMatch(/^invited ivy@example\.com as staff: emailed to ivy@example\.com too; it works once/);
      expect((await smtp.nextMailTo("ivy@example.com")).text).toContain(invited.stdout.trim());

      const reset = await user(database, ["reset-password", "olive@example.com"], mail);
      expect((await smtp.nextMailTo("olive@example.com")).text).toContain(reset.stdout.trim());
      // A mail server that is down loses nothing: the link is printed, and the operator told.
      await smtp.close();
      const down = await user(database, ["reset-password", "olive@example.com"], mail);
      expect(down).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^https://plants\\.example/reset-password/${SECRET}\n$`)) });
      expect(down.stderr).toContain("the email could not be sent (the mail server could not be reached): send them the link yourself");
      // The app's log line about it goes to stderr too: stdout is the link alone, for LINK=$(…).
      expect(down.stderr).toContain('"message":"an email could not be sent"');
    } finally {
      await smtp.close();
    }
  });

  it("invite prints only the link, stores only its hash, and a new invitation withdraws the pending one", async () => {
    const database = await teamWithOwner();
    const invited = await user(database, ["invite", "--email", "Ivy@Example.com", "--role", "staff"]);
    expect(invited.code).toBe(0);
    expect(invited.stdout).toMatch(new RegExp(`^https://plants\\.example/join/${SECRET}\n$`));
    expect(invited.stderr).toMatch(/^invited ivy@example\.com as staff: send them the link; it works once, until \d{4}-/);
    const secret = invited.stdout.trim().split("/").pop()!;
    const [row] = await database.query<Record<string, unknown>>("SELECT * FROM account_links");
    expect(row).toMatchObject({ purpose: "invitation", email: "ivy@example.com", role: "staff", token_hash: sha256(secret), used_at: null, withdrawn_at: null });
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(invited.stderr).not.toContain(secret);
    expect(await activity(database)).toEqual([{ action: "account.invited", by: BY_CLI, subject: `invitation:${row!.id as string}`, changes: { after: { email: "ivy@example.com", role: "staff" } } }]);
    expect(JSON.stringify(await activity(database))).not.toContain(sha256(secret));

    // Without NEXTAUTH_URL, the link points at this machine on PORT.
    const again = await user(database, ["invite", "--email", "ivy@example.com", "--role", "owner"], { NEXTAUTH_URL: "", PORT: "4321" });
    expect(again.stdout).toMatch(new RegExp(`^http://localhost:4321/join/${SECRET}\n$`));
    const rows = await database.query<{ role: string; withdrawn_at: unknown }>("SELECT role, withdrawn_at FROM account_links ORDER BY created_at");
    expect(rows.map((each) => [each.role, each.withdrawn_at === null ? "pending" : "withdrawn"])).toEqual([
      ["staff", "withdrawn"],
      ["owner", "pending"],
    ]);

    expect(await user(database, ["invite", "--email", "olive@example.com", "--role", "staff"])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "user: an account with email olive@example.com already exists\n",
    });
  });

  it("list shows every account and the pending invitations, as a table or JSON", async () => {
    const database = await freshDatabase();
    expect(await user(database, ["list"])).toMatchObject({ code: 0, stdout: "no accounts and no pending invitations\n" });
    await addAccount(database, "olive@example.com", "owner");
    await addAccount(database, "sam@example.com", "staff");
    // Deactivated as the deactivate command does (its own test runs it).
    await database.query("UPDATE users SET deactivated_at = $1 WHERE email = 'sam@example.com'", [sqlTime(database, new Date())]);
    await user(database, ["invite", "--email", "ivy@example.com", "--role", "staff"]);

    const table = (await user(database, ["list"])).stdout.split("\n");
    expect(table[0]).toMatch(/^EMAIL +NAME +ROLE +STATUS +LAST SIGN-IN +TOKENS +INVITATION EXPIRES$/);
    expect(table[1]).toMatch(/^olive@example\.com +olive +owner +active +never +0 +-$/);
    expect(table[2]).toMatch(/^sam@example\.com +sam +staff +deactivated +never +0 +-$/);
    expect(table[3]).toMatch(/^ivy@example\.com +- +staff +invited +- +- +\d{4}-\d\d-\d\dT/);

    const listed = JSON.parse((await user(database, ["list", "--json"])).stdout) as { members: unknown[]; invitations: unknown[] };
    expect(listed.members).toEqual([
      expect.objectContaining({ email: "olive@example.com", role: "owner", status: "active", lastSignInAt: null, deactivatedAt: null, liveTokens: 0 }),
      expect.objectContaining({ email: "sam@example.com", role: "staff", status: "deactivated", deactivatedAt: expect.any(String) }),
    ]);
    expect(listed.invitations).toEqual([{ id: expect.any(String), email: "ivy@example.com", role: "staff", status: "invited", createdAt: expect.any(String), expiresAt: expect.any(String) }]);
  });

  it("role changes an account's role, but never demotes the last active owner", async () => {
    const database = await teamWithOwner();
    await addAccount(database, "sam@example.com", "staff");
    const lastOwner = { code: 1, stderr: "user: olive@example.com is the only active owner: make another owner first\n" };
    expect(await user(database, ["role", "olive@example.com", "staff"])).toMatchObject(lastOwner);
    expect(await user(database, ["role", "Sam@Example.com", "owner"])).toMatchObject({ code: 0, stderr: "sam@example.com is owner\n" });
    expect(await user(database, ["role", "olive@example.com", "staff"])).toMatchObject({ code: 0, stderr: "olive@example.com is staff\n" });
    expect(await database.query("SELECT email, role FROM users ORDER BY email")).toEqual([
      { email: "olive@example.com", role: "staff" },
      { email: "sam@example.com", role: "owner" },
    ]);
    // The two changes made, and nothing for the refused one.
    expect(await activity(database)).toEqual([
      { action: "account.changed", by: BY_CLI, subject: `account:${await accountIdOf(database, "sam@example.com")}`, changes: { before: { role: "staff" }, after: { role: "owner" } } },
      { action: "account.changed", by: BY_CLI, subject: `account:${await accountIdOf(database, "olive@example.com")}`, changes: { before: { role: "owner" }, after: { role: "staff" } } },
    ]);
    expect(await user(database, ["role", "nobody@example.com", "owner"])).toMatchObject({ code: 1, stderr: "user: no account has email nobody@example.com\n" });
  });

  it("deactivate and reactivate, never the last active owner", async () => {
    const database = await teamWithOwner();
    await addAccount(database, "sam@example.com", "staff");
    expect(await user(database, ["deactivate", "olive@example.com"])).toMatchObject({ code: 1, stderr: "user: olive@example.com is the only active owner: make another owner first\n" });
    const deactivated = await user(database, ["deactivate", "sam@example.com"]);
    expect(deactivated).toMatchObject({ code: 0, stderr: expect.stringMatching(/^deactivated sam@example\.com: /) });
    const [row] = await database.query<{ deactivated_at: unknown; sessions_valid_from: unknown }>("SELECT deactivated_at, sessions_valid_from FROM users WHERE email = 'sam@example.com'");
    expect(row?.deactivated_at).not.toBeNull();
    expect(row?.sessions_valid_from).toEqual(row?.deactivated_at);
    expect(await user(database, ["reset-password", "sam@example.com"])).toMatchObject({ code: 1, stdout: "", stderr: "user: the account sam@example.com is deactivated: reactivate it first\n" });

    expect(await user(database, ["reactivate", "sam@example.com"])).toMatchObject({ code: 0, stderr: expect.stringMatching(/^reactivated sam@example\.com: /) });
    expect(await database.query("SELECT deactivated_at FROM users WHERE email = 'sam@example.com'")).toEqual([{ deactivated_at: null }]);
    const sam = `account:${await accountIdOf(database, "sam@example.com")}`;
    expect(await activity(database)).toEqual([
      { action: "account.deactivated", by: BY_CLI, subject: sam, changes: { before: { status: "active" }, after: { status: "deactivated" } } },
      { action: "account.reactivated", by: BY_CLI, subject: sam, changes: { before: { status: "deactivated" }, after: { status: "active" } } },
    ]);
  });

  it("reset-factors clears an account's second factors and ends its sessions, for an owner who lost every factor", async () => {
    const database = await teamWithOwner();
    const olive = await accountIdOf(database, "olive@example.com");
    const now = sqlTime(database, new Date());
    // Written as the app writes them (the seed sealed under the app's secret); these tests are about clearing them.
    await database.query("INSERT INTO totp_factors (user_id, secret, confirmed_at, created_at) VALUES ($1, $2, $3, $4)", [olive, sealEndpointSecret("JBSWY3DPEHPK3PXP"), now, now]);
    await database.query("INSERT INTO recovery_codes (id, user_id, code_hash, created_at) VALUES ('rc-1', $1, $2, $3)", [olive, sha256("recovery code"), now]);
    await database.query("INSERT INTO passkeys (id, user_id, name, public_key, device_type, backed_up, created_at) VALUES ('cred-1', $1, 'work phone', 'pQECAyYgASFYIA', 'multiDevice', TRUE, $2)", [olive, now]);

    const cleared = await user(database, ["reset-factors", "Olive@Example.com"]);
    expect(cleared).toMatchObject({ code: 0, stdout: "" });
    expect(cleared.stderr).toBe("cleared its authenticator app and recovery codes and 1 passkey(s) of olive@example.com, and ended its sessions: it signs in with its password alone\n");
    for (const table of ["totp_factors", "recovery_codes", "passkeys"]) expect(await database.query(`SELECT user_id FROM ${table}`)).toEqual([]);
    const [row] = await database.query<{ sessions_valid_from: unknown }>("SELECT sessions_valid_from FROM users WHERE id = $1", [olive]);
    expect(row?.sessions_valid_from).not.toBeNull();
    const recorded = [{ action: "account.factors_cleared", by: BY_CLI, subject: `account:${olive}`, changes: { before: { authenticatorApp: true, passkeys: ["work phone"] } } }];
    expect(await activity(database)).toEqual(recorded);

    // Again: nothing to clear, nothing recorded.
    expect(await user(database, ["reset-factors", "olive@example.com"])).toMatchObject({ code: 0, stderr: "olive@example.com has no second factor: nothing cleared, its sessions go on\n" });
    expect(await activity(database)).toEqual(recorded);
    expect(await user(database, ["reset-factors", "nobody@example.com"])).toMatchObject({ code: 1, stderr: "user: no account has email nobody@example.com\n" });
    expect(await user(database, ["reset-factors"])).toMatchObject({ code: 2, stderr: expect.stringContaining("reset-factors takes the account's email") });
  });

  it("reset-password prints only the link, and a new one withdraws the pending one", async () => {
    const database = await teamWithOwner();
    const first = await user(database, ["reset-password", "olive@example.com"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^https://plants\\.example/reset-password/${SECRET}\n$`));
    expect(first.stderr).toMatch(/^password reset link for olive@example\.com: send them the link; it works once, until \d{4}-/);
    const secret = first.stdout.trim().split("/").pop()!;
    const second = await user(database, ["reset-password", "olive@example.com"]);
    expect(second.stdout).not.toBe(first.stdout);
    const rows = await database.query<{ token_hash: string; purpose: string; withdrawn_at: unknown }>("SELECT token_hash, purpose, withdrawn_at FROM account_links ORDER BY created_at");
    expect(rows.map((row) => [row.purpose, row.token_hash === sha256(secret) ? "first" : "second", row.withdrawn_at === null ? "pending" : "withdrawn"])).toEqual([
      ["password_reset", "first", "withdrawn"],
      ["password_reset", "second", "pending"],
    ]);
    expect(await user(database, ["reset-password", "nobody@example.com"])).toMatchObject({ code: 1, stdout: "", stderr: "user: no account has email nobody@example.com\n" });
  });

  // A mistake in the arguments is the same on either engine: checked once, on SQLite, side by side.
  describe.skipIf(testDatabaseProvider() !== "sqlite").concurrent("argument errors", () => {
    it.for([
      [["fly"], "unknown command fly"],
      [["create", "--role", "staff"], "--email is required"],
      [["create", "--email", "a@b.co", "--role", "staff", "--password", "x"], "there is no --password flag"],
      [["create", "--email", "a@b.co", "--role", "king"], "usage:"],
      [["invite", "--email", "a@b.co"], "--role owner|staff is required"],
      [["invite", "--email", "not an email", "--role", "staff"], "email must be an email address"],
      [["invite", "--email", "a@b.co", "--role", "king"], "role must be one of owner, staff"],
      [["role", "a@b.co"], "role takes the account's email and owner or staff"],
      [["role", "a@b.co", "king"], "role must be one of owner, staff"],
      [["deactivate"], "deactivate takes the account's email"],
      [["reactivate", "a@b.co", "b@c.co"], "reactivate takes the account's email"],
      [["reset-password", "--email", "a@b.co"], "Unknown option '--email'"],
      [["list", "--csv"], "Unknown option '--csv'"],
    ] as const)("%j fails with exit 2: %s", async ([args, message], { expect }) => {
      const result = await runCli("user", [...args], { database: await freshDatabase() });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    });
  });
});

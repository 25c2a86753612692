import { beforeAll, expect, it } from "vitest";
import { makeAccount } from "@/test/support/accounts";
import { type AppServer, createToken } from "@/test/support/app-server";

// A staff member's row deleted behind the app's back with foreign keys off
// (the default of the sqlite3 shell; on PostgreSQL, session_replication_role =
// replica), so the cascade to their tokens never ran. Its token has a label
// of its own: the app's other tokens keep no owner. (SQLite names the row by
// its rowid, which the app's earlier tokens have moved on.)

const LABEL = "dangling-owner";

export function describeDanglingOwner(ownApp: () => AppServer): void {
  let token: string;

  beforeAll(async () => {
    const app = ownApp();
    await makeAccount(app.database, { email: "gone@plants.example", role: "staff", password: "a long enough passphrase" });
    token = await createToken(app.database, ["plants:write"], "1h", LABEL);
    await app.database.query("UPDATE api_tokens SET owner_id = (SELECT id FROM users WHERE email = 'gone@plants.example') WHERE label = $1", [LABEL]);
    const post = await fetch(`${app.url}/plants`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: '{"id":1,"name":"Fern"}' });
    expect(post.status).toBe(200);
    const foreignKeysOff = app.database.provider === "sqlite" ? "PRAGMA foreign_keys = OFF" : "SET session_replication_role = replica";
    await app.database.exec(`${foreignKeysOff}; DELETE FROM users WHERE email = 'gone@plants.example'`);
    expect(await app.database.query("SELECT id FROM api_tokens WHERE owner_id IS NOT NULL")).toHaveLength(1);
  });

  it("refuses a token whose owner no longer exists, whatever the foreign-key setting", async () => {
    for (const [method, body] of [["GET", undefined], ["POST", '{"id":2,"name":"Ivy"}']] as const) {
      const response = await fetch(`${ownApp().url}/plants`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 401, message: "the bearer token is not valid" });
    }
  });

  it("still starts with such a row in the database, reporting it rather than refusing to run", async () => {
    const app = ownApp();
    await app.restart();
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    if (app.database.provider === "sqlite") expect(app.output()).toMatch(/"rows":\["api_tokens \d+ -> users"\],"count":1[^\n]*"message":"rows whose foreign key points at nothing; the app ignores them"/);
  });
}

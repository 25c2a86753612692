import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";
import { makeAccount } from "@/test/support/accounts";
import { type SharedApp, sharedApp } from "@/test/support/shared-app";

// Sign-ins through the sign-in form's endpoint, against the built app (issue
// 22): a success and a failure are in the activity record with the client's
// address as the server decided it (not as a client claims it) and the
// browser's User-Agent; a form refused before any password was checked is
// not. On the app the HTTP files share: this file's accounts have emails of
// its own.

const PASSWORD = "correct horse battery staple";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0";

let app: SharedApp;
let email: string;
let userId: string;

beforeAll(async () => {
  app = sharedApp();
  email = `signer.${randomUUID()}@plants.example`;
  userId = await makeAccount(app.database, { email, role: "staff", password: PASSWORD });
});

/** Posts the sign-in form as the browser does, next-auth's CSRF token and cookie included; a client address of its own claimed in the header the server sets. */
async function signIn(values: Record<string, string>): Promise<void> {
  const csrf = await fetch(`${app.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers.getSetCookie().map((each) => each.split(";")[0]).join("; ");
  const response = await fetch(`${app.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, "user-agent": BROWSER, [CLIENT_ADDRESS_HEADER]: "192.0.2.99" },
    body: new URLSearchParams({ csrfToken, ...values, json: "true" }),
  });
  await response.arrayBuffer();
}

type Row = { action: string; actor_kind: string; actor_user_id: string | null; client_address: string | null; user_agent: string | null; changes: string };

const recordsOf = (subjectId: string) =>
  app.database.query<Row>("SELECT action, actor_kind, actor_user_id, client_address, user_agent, changes FROM activity WHERE subject_kind = 'account' AND subject_id = $1 ORDER BY id", [subjectId]);

describe("the sign-in form's activity", () => {
  it("records a success and a failure from the server's client address and the browser's User-Agent, and nothing for a form without a password", async () => {
    await signIn({ email, password: PASSWORD });
    await signIn({ email: email.toUpperCase(), password: "not the password at all" });
    await signIn({ email });

    const records = await recordsOf(userId);
    // The account's creation by the CLI, then the two sign-ins.
    expect(records.map((record) => record.action)).toEqual(["account.created", "sign_in.succeeded", "sign_in.failed"]);
    const [, succeeded, failed] = records;
    // The test reaches the app over loopback; the address it claimed is replaced by the server.
    const fromHere = { client_address: expect.stringMatching(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/), user_agent: BROWSER };
    expect(succeeded).toMatchObject({ actor_kind: "person", actor_user_id: userId, ...fromHere });
    expect(failed).toMatchObject({ actor_kind: "app", actor_user_id: null, ...fromHere });
    expect(JSON.parse(failed!.changes)).toEqual({ after: { email, reason: "wrong password" } });
    expect(JSON.stringify(records)).not.toContain("not the password at all");
  });
});

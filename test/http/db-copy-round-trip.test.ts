import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount } from "@/test/support/accounts";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { runCli } from "@/test/support/cli";
import { makeTestDatabase, type TestDatabase, testDatabaseProvider } from "@/test/support/test-database";
import { appAuthSecret } from "@/test/support/webhook-endpoints";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/support/webhook-receiver";

// The move issue 23 promises, end to end with the built app: a store on
// SQLite, filled through the API and the CLIs, copied to PostgreSQL with
// `db copy`, served from there by an app with the same NEXTAUTH_SECRET, then
// copied back into a new SQLite file. Every export and answer is the same
// byte for byte at each step; the API token and the staff session made on
// SQLite are accepted after each move; the pending deliveries are sent from
// PostgreSQL, signed with the endpoint's original secret.
// It needs both engines: it runs once, in the PostgreSQL project.

const PASSWORD = "correct horse battery staple";
const EDGES = [-9223372036854775808n, 9223372036854775807n, 9007199254740993n];

let receiver: WebhookReceiver;
let endpointSecret: string;
let authSecret: string;
let token: string;
let cookie: string;
const databases: TestDatabase[] = [];
const apps: AppServer[] = [];

async function database(provider: "sqlite" | "postgresql"): Promise<TestDatabase> {
  const made = await makeTestDatabase(provider);
  databases.push(made);
  return made;
}

async function app(on: TestDatabase, env: Record<string, string> = {}): Promise<AppServer> {
  const started = await startApp({ database: on, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", ...env } });
  apps.push(started);
  return started;
}

async function cli(name: "webhook" | "db" | "db:migrate", on: TestDatabase, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<string> {
  const run = await runCli(name, args, { database: on, stdin: options.stdin, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", ...options.env } });
  if (run.code !== 0) throw new Error(`${name} ${args.join(" ")} exited with ${run.code}:\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

async function send(store: AppServer, method: string, path: string, body?: string, contentType = "application/json"): Promise<Response> {
  return fetch(`${store.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": contentType }, body });
}

/** Signs in through the sign-in form's endpoint, as a browser does; answers the session cookie. */
async function signIn(store: AppServer, email: string): Promise<string> {
  const csrf = await fetch(`${store.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers.getSetCookie().map((each) => each.split(";")[0]).join("; ");
  const response = await fetch(`${store.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: "true" }),
  });
  await response.arrayBuffer();
  const session = response.headers.getSetCookie().find((each) => each.includes("session-token"));
  if (!session) throw new Error(`no session cookie after signing in (${response.status})`);
  return session.split(";")[0]!;
}

type Seen = { status: number; etag: string | null; body: string };

/** What the store answers: the exports and a few reads, with the token and with the session. */
async function whatItAnswers(store: AppServer): Promise<Record<string, Seen>> {
  const reads: Record<string, [string, Record<string, string>]> = {
    "API CSV": ["/plants", { authorization: `Bearer ${token}`, accept: "text/csv" }],
    "API list": ["/plants?limit=5", { authorization: `Bearer ${token}` }],
    "plants.csv": ["/plants.csv", { cookie }],
    "activity.csv": ["/activity.csv", { cookie }],
    "history of 1": ["/plants/1/history", { authorization: `Bearer ${token}` }],
    "history of a deleted plant": ["/plants/2/history", { authorization: `Bearer ${token}` }],
    ...Object.fromEntries(EDGES.map((id) => [`plant ${id}`, [`/plants/${id}`, { authorization: `Bearer ${token}` }]])),
  };
  const answers: Record<string, Seen> = {};
  for (const [name, [path, headers]] of Object.entries(reads)) {
    const response = await fetch(`${store.url}${path}`, { headers, redirect: "manual" });
    answers[name] = { status: response.status, etag: response.headers.get("etag"), body: await response.text() };
  }
  return answers;
}

describe.runIf(testDatabaseProvider() === "postgresql")("a store moved from SQLite to PostgreSQL and back", () => {
  let original: Record<string, Seen>;
  let sqlite: TestDatabase;
  let plantCount: number;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sqlite = await database("sqlite");
    // Its worker off: the deliveries stay pending, to be sent after the move.
    const first = await app(sqlite, { WEBHOOK_WORKER: "off" });
    authSecret = appAuthSecret(sqlite);
    await makeAccount(sqlite, { email: "owner@plants.example", role: "owner", name: "Olga Ørsted", password: PASSWORD });
    token = await createToken(sqlite, ["plants:write", "plants:read"], "30d", "moving");
    endpointSecret = (await cli("webhook", sqlite, ["create", "--url", receiver.url, "--event", "plant.created", "--event", "plant.deleted"])).trim();
    receiver.secrets = [endpointSecret];

    const plants: [bigint, string, string | null][] = [
      ...EDGES.map((id, index): [bigint, string, string | null] => [id, ["Lowest", "Ёлка 🌲", "Past 2^53, just"][index]!, index === 1 ? "日本" : null]),
      [1n, 'The "Queen" fern', "indoor"],
      [2n, "To be deleted", null],
      [3n, "=HYPERLINK(\"http://evil.example\")", "+tag"],
      ...Array.from({ length: 40 }, (_, index): [bigint, string, string | null] => [BigInt(1000 + index), `Plant ${index} ✿`, index % 3 === 0 ? null : `tag ${index % 4}`]),
    ];
    for (const [id, name, tag] of plants) {
      const response = await send(first, "POST", "/plants", `{"id":${id},"name":${JSON.stringify(name)}${tag === null ? "" : `,"tag":${JSON.stringify(tag)}`}}`);
      expect(response.status).toBe(200);
    }
    expect((await send(first, "PATCH", "/plants/1", '{"name":"The Queen fern, repotted","tag":null}', "application/merge-patch+json")).status).toBe(200);
    expect((await send(first, "DELETE", "/plants/2")).status).toBe(204);
    plantCount = plants.length - 1;
    cookie = await signIn(first, "owner@plants.example");
    original = await whatItAnswers(first);
    await first.kill();
  });

  afterAll(async () => {
    await Promise.all(apps.map((each) => each.stop()));
    await Promise.all(databases.map((each) => each.drop()));
    await receiver?.close();
  });

  it("answers the same on SQLite as it did before it was stopped, with every plant and pending delivery", async () => {
    expect(original["API CSV"]!.status).toBe(200);
    expect(original["API CSV"]!.body.split("\r\n")).toHaveLength(plantCount + 2);
    for (const id of EDGES) expect(original[`plant ${id}`]!.body).toContain(`"id":${id}`);
    expect(original["plants.csv"]!.status).toBe(200);
    expect(original["activity.csv"]!.status).toBe(200);
    expect(original["history of a deleted plant"]!.body).toContain("plant.deleted");
    const pending = await sqlite.query("SELECT id FROM webhook_deliveries WHERE status = 'pending'");
    expect(pending).toHaveLength(plantCount + 2);
  });

  it("after a copy to PostgreSQL, answers byte for byte the same, takes the same token and session, and signs with the same webhook secret", async () => {
    const postgres = await database("postgresql");
    const secrets = { NEXTAUTH_SECRET: authSecret };
    await cli("db:migrate", postgres, [], { env: secrets });
    const copied = await cli("db", sqlite, ["copy", "--to", postgres.url]);
    expect(copied).toMatch(/^  plants +45  match [0-9a-f]{16}$/m);

    const moved = await app(postgres, secrets);
    expect(await whatItAnswers(moved)).toEqual(original);
    // The deliveries left pending on SQLite are sent from PostgreSQL, each verified by the receiver with the secret it was given at creation.
    await receiver.waitFor("the pending deliveries", () => receiver.acknowledged().size === plantCount + 2);
    expect(receiver.unverified()).toEqual([]);
    expect(receiver.received.filter((delivery) => delivery.body.includes('"id":9223372036854775807'))).toHaveLength(1);
    await moved.kill();

    // And back, into a new SQLite file: the same again.
    const back = await database("sqlite");
    await cli("db:migrate", back, []);
    const copiedBack = await cli("db", postgres, ["copy", "--to", back.url], { env: secrets });
    expect(copiedBack).toMatch(/^  webhook_deliveries +47  match [0-9a-f]{16}$/m);
    const returned = await app(back, { ...secrets, WEBHOOK_WORKER: "off" });
    expect(await whatItAnswers(returned)).toEqual(original);
    // A write on the copy: ids and versions go on from where they were.
    expect((await send(returned, "POST", "/plants", '{"id":4,"name":"After the move"}')).status).toBe(200);
    const [newest] = await back.query<{ action: string; subject_id: string }>("SELECT action, subject_id FROM activity ORDER BY id DESC LIMIT 1");
    expect(newest).toEqual({ action: "plant.created", subject_id: "4" });
  });
});

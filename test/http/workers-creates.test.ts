import { readdirSync, readlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { storedPlants } from "@/test/support/test-database";
import { type Answer, answeringWorkers, distinctWorkers, send } from "@/test/support/worker-requests";

// One `npm start` with two workers (issue 25) writes as one server: creates
// of one id racing through both workers store one row and answer as the API
// defines (docs/api.md: 200 for the plant stored, 200 with
// Idempotent-Replayed for an identical repeat, 409 for other data under its
// id), and every create a worker acknowledged is in the database once the
// server has stopped. Each request goes on a connection of its own, which
// the primary hands to the next worker; the request log says which answered.

let app: AppServer;
let token: string;

beforeAll(async () => {
  app = await startApp({ env: { WEB_CONCURRENCY: "2" } });
  token = await createToken(app.database, ["plants:write"]);
});

afterAll(async () => {
  await app?.stop();
});

const create = (body: string) => send(`${app.url}/plants`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });

/** 20 creates of `id` at once, each on a connection of its own; the name of the n-th is `nameOf(n)`. */
async function race(id: bigint, nameOf: (index: number) => string): Promise<{ name: string; answer: Answer }[]> {
  return Promise.all(
    Array.from({ length: 20 }, async (_, index) => {
      const name = nameOf(index);
      return { name, answer: await create(`{"id":${id},"name":"${name}"}`) };
    }),
  );
}

const replayed = (answer: Answer) => answer.headers["idempotent-replayed"] === "true";

describe("creates of one id racing through both workers", () => {
  it("store one row for 20 identical creates: one answer stored it, the other 19 are its replays", async () => {
    for (const id of [1n, 2n, 3n]) {
      const answers = (await race(id, () => "Fern")).map(({ answer }) => answer);
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      expect(answers.filter((answer) => !replayed(answer))).toHaveLength(1);
      expect(answers.map((answer) => JSON.parse(answer.body) as unknown)).toEqual(Array(20).fill({ id: Number(id), name: "Fern" }));
      expect(await distinctWorkers(app, answers)).toEqual([0, 1]);
      expect(await storedPlants(app.database, { from: id, to: id })).toEqual([{ id, name: "Fern", tag: null }]);
    }
  });

  it("store one row for 20 creates with two names: the stored name's one 200 and replays, 409 for the other name", async () => {
    for (const id of [11n, 12n, 13n]) {
      const attempts = await race(id, (index) => (index % 2 === 0 ? "Fern" : "Palm"));
      const rows = await storedPlants(app.database, { from: id, to: id });
      expect(rows).toHaveLength(1);
      const winner = rows[0]!.name;
      const outcome = ({ name, answer }: { name: string; answer: Answer }) => (name !== winner ? answer.status : replayed(answer) ? "replayed" : answer.status);
      const outcomes = attempts.map(outcome);
      expect(outcomes.filter((each) => each === 200)).toHaveLength(1);
      expect(outcomes.filter((each) => each === "replayed")).toHaveLength(9);
      expect(outcomes.filter((each) => each === 409)).toHaveLength(10);
      expect(await distinctWorkers(app, attempts.map(({ answer }) => answer))).toEqual([0, 1]);
    }
  });
});

describe("a create through either worker, stored by the primary's writer", () => {
  // On PostgreSQL each worker writes its own, on its own connections.
  it.skipIf(process.env.TEST_DATABASE === "postgresql")("is written on SQLite by the primary, which holds a connection to the file of its own", () => {
    const config = app.database.config;
    if (config.provider !== "sqlite") throw new Error("a SQLite test");
    const primary = app.pid()!;
    const open = readdirSync(`/proc/${primary}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${primary}/fd/${fd}`);
      } catch {
        return "";
      }
    });
    expect(open).toContain(path.resolve(config.path));
  });

  it("keeps an id past 2^53 and its tag exact, and records it as the token's, with the request's id", async () => {
    const answers = await Promise.all(
      [9_007_199_254_740_993n, 9_223_372_036_854_775_807n].flatMap((id) => [0, 1].map((n) => create(`{"id":${id + BigInt(n) * -2n},"name":"Exact","tag":"edge ${n}"}`))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => answer.body)).toEqual([
      `{"id":9007199254740993,"name":"Exact","tag":"edge 0"}`,
      `{"id":9007199254740991,"name":"Exact","tag":"edge 1"}`,
      `{"id":9223372036854775807,"name":"Exact","tag":"edge 0"}`,
      `{"id":9223372036854775805,"name":"Exact","tag":"edge 1"}`,
    ]);
    const history = await send(`${app.url}/plants/9007199254740993/history`, { headers: { authorization: `Bearer ${token}` } });
    expect(history.status).toBe(200);
    expect(history.body).toContain(`"after":{"id":9007199254740993,"name":"Exact","tag":"edge 0"}`);
    expect(history.body).toContain(`"requestId":"${answers[0]!.requestId}"`);
    expect(await storedPlants(app.database, { from: 9_007_199_254_740_991n, to: 9_007_199_254_740_993n })).toEqual([
      { id: 9_007_199_254_740_991n, name: "Exact", tag: "edge 1" },
      { id: 9_007_199_254_740_993n, name: "Exact", tag: "edge 0" },
    ]);
  });
});

describe("creates of many ids through both workers", () => {
  // Last in this file: it stops the app.
  it("are all in the database after SIGTERM: every one acknowledged, whichever worker did", async () => {
    const acknowledged: bigint[] = [];
    const answers: Answer[] = [];
    let nextId = 1_000_000n;
    const writer = async () => {
      for (let count = 0; count < 25; count++) {
        const id = nextId++;
        const answer = await create(`{"id":${id},"name":"Load"}`);
        answers.push(answer);
        if (answer.status === 200) acknowledged.push(id);
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body}`)).toEqual([]);
    expect(acknowledged).toHaveLength(200);
    expect(new Set(await answeringWorkers(app, answers)).size).toBe(2);

    expect(await app.kill("SIGTERM")).toEqual({ code: 0, signal: null });
    const stored = new Set((await storedPlants(app.database, { from: 1_000_000n, to: 1_999_999n })).map((plant) => plant.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(200);
  });
});

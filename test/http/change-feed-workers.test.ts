import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { createParser } from "eventsource-parser";
import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { logLines } from "@/test/support/app-log";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { openChangeStream, type ChangeStreamClient } from "@/test/support/change-stream";
import { childPids } from "@/test/support/process-tree";
import { serverSideOf } from "@/test/support/server-connections";
import { send } from "@/test/support/worker-requests";

// The change feed with two workers (issue 32), on either engine: a stream on
// either worker hears the changes written through either, a client that
// reconnects after its worker, then the whole server, was killed with -9
// resumes where it was, nothing missed or repeated, and so does one cut for
// having stopped reading, whose connection the server resets. The client is the
// `eventsource` package, which reconnects with Last-Event-ID by itself, as a
// browser's EventSource does.

let app: AppServer;
let token: string;

beforeAll(async () => {
  app = await startApp({ env: { WEB_CONCURRENCY: "2" } });
  token = await createToken(app.database, ["plants:write"]);
});

afterAll(async () => {
  await app?.stop();
});

let nextId = 9007199254740993n;

/** Stores a plant on a connection of its own, so the primary hands it to the next worker. */
async function create(tag: string): Promise<bigint> {
  const id = nextId++;
  const answer = await send(`${app.url}/plants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: `{"id":${id},"name":"Plant ${id}","tag":"${tag}"}`,
  });
  expect(answer.status).toBe(200);
  return id;
}

/** SIGKILL, unless the process has ended meanwhile. */
function killIfAlive(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** Stores `count` plants with `tag` in batches of 1,000, each with a name of PLANT_NAME_MAX (200) characters; answers their ids, in order. */
async function createMany(tag: string, count: number): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (let from = 0; from < count; from += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, count - from) }, () => nextId++);
    const response = await fetch(`${app.url}/plants/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: `[${batch.map((id) => `{"id":${id},"name":"${String(id).padEnd(200, "x")}","tag":"${tag}"}`).join(",")}]`,
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    ids.push(...batch);
  }
  return ids;
}

/** The least bytes of one of createMany's events: its id, type and the webhooks' body with a 200-character name. */
const EVENT_BYTES_AT_LEAST = 300;

/**
 * What a connection holds before its writer must wait, when its reader reads nothing: the most the kernel
 * lets the server's socket hold to send (tcp_wmem's last figure), and the client's receive buffer, which
 * grows only as it is read (tcp_rmem's middle one), twice for what Node reads before it pauses.
 */
function connectionBytes(): number {
  const figures = (name: string) => readFileSync(`/proc/sys/net/ipv4/${name}`, "utf8").trim().split(/\s+/).map(Number);
  try {
    return figures("tcp_wmem")[2]! + 2 * figures("tcp_rmem")[1]!;
  } catch {
    return 8 * 2 ** 20;
  }
}

const createdIds = (events: { data: string }[]) => events.map((event) => (parseExactJson(event.data) as { data: { id: bigint } }).data.id);

/**
 * An EventSource follows a tag through two changes, then `outage`, then two more: it reconnects by itself with
 * Last-Event-ID and gets all four, in order, each once.
 */
async function resumesAcross(outage: () => Promise<void>): Promise<void> {
  const tag = `resume-${randomUUID().slice(0, 8)}`;
  const received: { id: string; data: string }[] = [];
  const source = new EventSource(`${app.url}/plants/events?tag=${tag}`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
  });
  source.addEventListener("plant.created", (event) => received.push({ id: event.lastEventId, data: event.data }));
  try {
    await expect.poll(() => source.readyState).toBe(EventSource.OPEN);
    const ids = [await create(tag), await create(tag)];
    await expect.poll(() => received.length).toBe(2);
    await outage();
    // Changes made once the server is back, before the client reconnects or after.
    ids.push(await create(tag), await create(tag));
    await expect.poll(() => received.length).toBe(4);

    expect(createdIds(received)).toEqual(ids);
    const positions = received.map((event) => BigInt(event.id));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(positions).size).toBe(4);
  } finally {
    source.close();
  }
}

describe("the change feed with two workers", () => {
  it("gives a stream on either worker every change written through either, in the same order", async () => {
    const tag = `workers-${randomUUID().slice(0, 8)}`;
    // Each on a connection of its own (as openChangeStream opens every stream): the primary deals them out to both workers.
    const streams: ChangeStreamClient[] = [];
    for (let index = 0; index < 4; index++) streams.push(await openChangeStream(`${app.url}/plants/events?tag=${tag}`, { authorization: `Bearer ${token}` }));
    // Which worker holds each, as its request's log line says (written as the stream opens, read once it has come through the pipe).
    const workerOf = (stream: ChangeStreamClient) => logLines(app.output()).find((line) => line.requestId === stream.headers.get("x-request-id"))?.worker;
    await expect.poll(() => streams.map(workerOf)).not.toContain(undefined);
    const workers = new Set(streams.map(workerOf));
    const ids: bigint[] = [];
    for (let index = 0; index < 6; index++) ids.push(await create(tag));
    for (const stream of streams) expect(createdIds(await stream.waitFor(6))).toEqual(ids);
    expect(new Set(streams.map((stream) => stream.events.map((event) => event.id).join()))).toHaveProperty("size", 1);
    // The streams were held by both workers (the request log names each one's).
    expect(workers).toEqual(new Set([0, 1]));
    for (const stream of streams) stream.close();
  });

  // Two tests, each a restart within a test's time on a slow machine: the workers, then the whole server.
  it("resumes an EventSource after kill -9 of the workers: nothing missed, nothing repeated", async () => {
    await resumesAcross(async () => {
      // Both workers die; the primary starts others in their places.
      const primary = app.pid()!;
      const listening = () => logLines(app.output()).filter((line) => line.message === "worker listening").length;
      const before = listening();
      for (const worker of childPids(primary)) killIfAlive(worker);
      await expect.poll(listening).toBe(before + 2);
    });
  });

  it("resumes an EventSource after kill -9 of the whole server: nothing missed, nothing repeated", async () => {
    await resumesAcross(async () => {
      const orphans = childPids(app.pid()!);
      await app.kill("SIGKILL");
      // The workers of a primary killed with -9 end by themselves (lib/server/parent-exit.ts), or are ended here.
      for (const worker of orphans) killIfAlive(worker);
      await app.restart();
    });
  });

  // On SQLite only: the cut is the same code on both engines, and both engines' reads of a stream's backlog are change-feed.test.ts's.
  it.skipIf(process.env.TEST_DATABASE === "postgresql")("resets the connection of a stream whose client stopped reading once events wait for it, and the client resumes from the last event it read: nothing missed, nothing repeated", async () => {
    const tag = `stalled-${randomUUID().slice(0, 8)}`;
    // A client that reads the headers, then nothing: the connection's buffers fill, then the server's queue.
    // From the first change kept (this file's app holds only its own), so that a client that read no event resumes from 0.
    const stalled = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest(`${app.url}/plants/events?tag=${tag}&after=0`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" }, agent: false }, resolve);
      request.on("error", reject).end();
    });
    expect(stalled.statusCode).toBe(200);
    const requestId = stalled.headers["x-request-id"];
    const serverSide = () => serverSideOf(app.port, stalled.socket.localPort!);
    expect(serverSide().map(({ state }) => state)).toEqual(["ESTAB"]);
    const cut = () => logLines(app.output()).some((line) => line.message === "an event stream was cut" && line.requestId === requestId);
    // Changes enough to fill the connection, then rounds more, each followed by the 20 to 30 s in which a
    // connection that takes nothing is cut, until it is: what fills a connection is the kernel's to say.
    const ids: bigint[] = [];
    while (ids.length * EVENT_BYTES_AT_LEAST < connectionBytes()) ids.push(...(await createMany(tag, 5_000)));
    for (let round = 0; round < 10 && !cut(); round++) {
      if (round > 0) ids.push(...(await createMany(tag, 5_000)));
      for (const deadline = Date.now() + 40_000; !cut() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(cut(), `no cut logged for ${requestId} after ${ids.length} changes`).toBe(true);

    // Reset before the cut is logged: nothing of it left on the server's side, neither the connection with its
    // backlog (ESTAB) nor an orphan still trying to send it (FIN-WAIT-1).
    expect(serverSide()).toEqual([]);

    // What had reached the client before the reset it can still read (its own buffers), then the reset ends it.
    const received: { id: string | undefined; data: string }[] = [];
    const parser = createParser({ onEvent: (event) => received.push({ id: event.id, data: event.data }) });
    stalled.setEncoding("utf8");
    await (async () => {
      for await (const text of stalled) parser.feed(text as string);
    })().catch(() => {});
    expect(received.length).toBeLessThan(ids.length);
    expect(createdIds(received)).toEqual(ids.slice(0, received.length));

    // Back with the last id it read: the rest, from the first it had not read, each once.
    const resumed = await openChangeStream(`${app.url}/plants/events?tag=${tag}`, { authorization: `Bearer ${token}`, "last-event-id": received.at(-1)?.id ?? "0" });
    try {
      expect(createdIds(await resumed.waitFor(ids.length - received.length))).toEqual(ids.slice(received.length));
    } finally {
      resumed.close();
    }
  });
});

import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { appEnv, SLOW_MACHINE_CLOCKS } from "@/test/support/app-env";
import { createToken, type Exit, freePort } from "@/test/support/app-server";
import { makeTestDatabase, storedPlants, type TestDatabase } from "@/test/support/test-database";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";

// `npm start` as a supervisor, `docker stop` or an operator stops it (issue
// 20): a signal to npm's process, to the server's, or to the whole process
// group drains the server (the request in flight is answered) and stops it
// with exit status 0, npm's too, and leaves no process behind. So does the
// death of npm itself, which passes nothing on.

const ROOT = path.resolve(import.meta.dirname, "../..");

let database: TestDatabase;
let token: string;
let started: NpmStart | undefined;
let nextId = 7_100_001n;

beforeAll(async () => {
  database = await makeTestDatabase();
  token = await createToken(database, ["plants:write"]);
});

afterEach(() => {
  // Whatever a failed case left running: every process of the group this test started.
  if (started && groupMembers(started.pgid).length > 0) process.kill(-started.pgid, "SIGKILL");
  started = undefined;
});

afterAll(async () => {
  await database?.drop();
});

type Target = "npm" | "server" | "group";

it.each<[string, Target, NodeJS.Signals]>([
  ["SIGTERM to npm (docker stop, a supervisor)", "npm", "SIGTERM"],
  ["SIGTERM to the server", "server", "SIGTERM"],
  ["SIGTERM to the whole process group", "group", "SIGTERM"],
  ["SIGINT to the whole process group (Ctrl-C in a terminal)", "group", "SIGINT"],
])("%s: the request in flight is answered, the server and npm exit 0, nothing is left", async (_, target, signal) => {
  started = await npmStart();
  const request = await requestInFlight(started.port);

  const pid = { npm: started.npm.pid!, server: started.serverPid, group: -started.pgid }[target];
  process.kill(pid, signal);
  await started.waitForOutput('"message":"shutting down"');

  expect(await request.finish()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  // npm exits with the status of the script it runs, and only once the server has exited.
  expect(await started.exited, started.output()).toEqual({ code: 0, signal: null });
  expect(started.output()).toMatch(/"message":"shut down"/);
  expect(groupMembers(started.pgid)).toEqual([]);
  expect(await stored()).toContain(request.id);
});

it("SIGKILL to npm, which passes nothing on: the server notices, drains and stops by itself", async () => {
  started = await npmStart();
  const request = await requestInFlight(started.port);

  process.kill(started.npm.pid!, "SIGKILL");
  expect(await started.exited).toEqual({ code: null, signal: "SIGKILL" });
  await started.waitForOutput('"message":"shutting down"');

  expect(await request.finish()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  // The server held npm's output pipes: they close when it has exited too.
  await started.closed;
  expect(started.output()).toMatch(/"level":"warn"[^\n]*"message":"the process that started the server has exited without stopping it"/);
  expect(started.output()).toMatch(/"message":"shut down"/);
  expect(groupMembers(started.pgid)).toEqual([]);
  expect(await stored()).toContain(request.id);
});

type NpmStart = {
  npm: ChildProcess;
  pgid: number;
  serverPid: number;
  port: number;
  exited: Promise<Exit>;
  /** Resolves once every process holding npm's output has exited. */
  closed: Promise<void>;
  output(): string;
  waitForOutput(text: string): Promise<void>;
};

/** `npm start` exactly as an operator types it, in a process group of its own (as a supervisor or a terminal runs it). */
async function npmStart(): Promise<NpmStart> {
  const port = await freePort();
  // The drain's deadline as a hang guard: the stop comes right after the server listens, while Next.js may
  // still be loading its routes in the background, which on a busy machine can take longer than the default 10 s.
  const env = appEnv(database, { HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: "off", SHUTDOWN_TIMEOUT_MS: SLOW_MACHINE_CLOCKS.SHUTDOWN_TIMEOUT_MS });
  const npm = spawn("npm", ["start"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  npm.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  npm.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<Exit>((resolve) => npm.once("exit", (code, signal) => resolve({ code, signal })));
  const closed = new Promise<void>((resolve) => npm.once("close", () => resolve()));
  const waitForOutput = async (text: string) => {
    const deadline = Date.now() + HANG_GUARD_MS;
    while (!log.includes(text)) {
      if (Date.now() > deadline) throw new Error(`no ${text} in the output within ${HANG_GUARD_MS / 1000} s:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  // detached: npm leads a new session and process group, whose id is its pid.
  started = { npm, pgid: npm.pid!, serverPid: 0, port, exited, closed, output: () => log, waitForOutput };
  await waitForOutput('"message":"listening"');
  const servers = groupMembers(npm.pid!).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === "node");
  expect(servers, log).toHaveLength(1);
  started.serverPid = servers[0]!;
  return started;
}

/** A POST /plants the server is answering: its headers are read (100 Continue), its body not yet sent. */
async function requestInFlight(port: number): Promise<{ id: bigint; finish(): Promise<string> }> {
  const id = nextId++;
  const body = `{"id":${id},"name":"In flight at the stop"}`;
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  socket.on("error", () => {});
  const closedSocket = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(
    `POST /plants HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!received.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
    if (Date.now() > deadline) throw new Error(`no 100 Continue: ${JSON.stringify(received)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    id,
    finish: async () => {
      received = "";
      socket.write(body);
      // The server closes the connection after the answer: it is shutting down.
      await closedSocket;
      return received;
    },
  };
}

async function stored(): Promise<bigint[]> {
  return (await storedPlants(database)).map((plant) => plant.id);
}

/** The live processes of a process group (zombies, which init has yet to reap, are gone for this purpose). */
function groupMembers(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      const fields = procStat(Number(entry));
      return fields && fields.pgrp === pgid && fields.state !== "Z" ? [Number(entry)] : [];
    });
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses, so split after the last ")". */
function procStat(pid: number): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited meanwhile
  }
  const [state, , pgrp] = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: state!, pgrp: Number(pgrp) };
}

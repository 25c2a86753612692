import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { STOP_SIGNALS } from "@/test/support/stop-signals";
import { makeTestDatabase, storedPlants, type TestDatabase } from "@/test/support/test-database";

// A stop signal under write load: readiness turns 503, the port closes, the
// requests in flight finish, and the process exits 0, having stored every
// plant it answered 200. SIGTERM is a supervisor's stop; SIGHUP a closed
// terminal's (and some supervisors'), which Node's default turns into a kill.
// A connection that has sent no request (a browser's preconnect) is closed,
// not waited for (issue 44).

let database: TestDatabase | undefined;
let app: AppServer | undefined;

afterEach(async () => {
  await app?.stop();
  await database?.drop();
  app = undefined;
  database = undefined;
});

// A hang guard: each case starts its own app, which a loaded machine takes a while to.
it.each(STOP_SIGNALS)("on %s under write load, stores every plant answered 200, answers no 5xx, refuses new connections, closes one that never sent a request, and exits 0", async (signal) => {
  database = await makeTestDatabase();
  // Grace after the signal: readiness must be seen turning 503 while the port still serves, and a
  // loaded machine may take seconds to answer one probe beside twelve writers (issue 31). The writers
  // stop once it has been seen, so most of the grace passes idle.
  // Node answers a connection that sends nothing 408 once HEADERS_TIMEOUT_MS has passed: here not before the stop's deadline.
  const never = "3600000";
  app = await startApp({ database, env: { SHUTDOWN_DELAY_MS: "30000", HEADERS_TIMEOUT_MS: never, REQUEST_TIMEOUT_MS: never } });
  const running = app;
  const token = await createToken(database, ["plants:write"]);
  const acknowledged: bigint[] = [];
  const statuses: number[] = [];
  let nextId = 1n;
  let stopping = false;
  const writer = async () => {
    while (!stopping) {
      const id = nextId++;
      const response = await fetch(`${running.url}/plants`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: `{"id":${id},"name":"Under load"}`,
      }).catch(() => undefined);
      if (!response) return; // the port is closed: this writer is done
      statuses.push(response.status);
      if (response.status === 200) acknowledged.push(id);
    }
  };
  const writers = Array.from({ length: 12 }, writer);
  // Under load before the signal: at least 50 plants answered, however long a busy machine takes to.
  await expect.poll(() => acknowledged.length, { interval: 20 }).toBeGreaterThanOrEqual(50);

  // Connected, and sends nothing: the drain closes it (a wait for it would last until the deadline, and exit 1).
  const unused = connect(running.port, "127.0.0.1");
  const unusedClosed = new Promise((resolve) => unused.once("close", resolve));
  await new Promise((resolve, reject) => unused.once("connect", resolve).once("error", reject));

  const exit = running.kill(signal);
  const readiness = async () => {
    const response = await fetch(`${running.url}/readyz`);
    return { status: response.status, body: await response.json() };
  };
  await expect.poll(readiness, { interval: 50 }).toEqual({ status: 503, body: { error: 503, message: "not ready: shutting down" } });
  // Still served during the grace, while readiness says 503: more plants answered 200.
  const answeredAtSignal = acknowledged.length;
  await expect.poll(() => acknowledged.length, { interval: 20 }).toBeGreaterThan(answeredAtSignal);
  stopping = true;
  await Promise.all(writers);

  expect(await exit).toEqual({ code: 0, signal: null });
  await unusedClosed;
  expect(unused.bytesRead).toBe(0);
  await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  const stored = new Set((await storedPlants(database)).map((plant) => plant.id));
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(running.output()).toMatch(new RegExp(`"signal":"${signal}"[^\\n]*"message":"shutting down"[\\s\\S]*"message":"shut down"`));
});

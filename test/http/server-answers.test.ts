import { afterAll, beforeAll, describe } from "vitest";
import { type AppServer, freePort, startApp } from "@/test/support/app-server";
import { describeProtocolErrors } from "./server-answers/protocol-errors";
import { describeServerRefusals } from "./server-answers/server-refusals";

// What the server answers itself, before Next.js (issue 20): requests Node's
// HTTP server cannot take, and those the app refuses before routing. Both on
// one app of their own with short HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS,
// whose slow clients they test, and its metrics on a port of its own: one
// start where each file had one (issue 31).

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ env: { HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000", METRICS_PORT: String(await freePort()) } });
});

afterAll(async () => {
  await app?.stop();
});

const ownApp = () => app;

describe("protocol errors", () => describeProtocolErrors(ownApp));
describe("server refusals", () => describeServerRefusals(ownApp));

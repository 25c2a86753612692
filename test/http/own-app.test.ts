import { afterAll, beforeAll, describe } from "vitest";
import { type AppServer, startApp } from "@/test/support/app-server";
import { describeActivityCrash } from "./own-app/activity-crash";
import { describeDanglingOwner } from "./own-app/dangling-owner";
import { describeProbes } from "./own-app/probes";
import { describeUnexpectedError } from "./own-app/unexpected-error";

// The tests that kill or restart their app, read its log or damage its
// database, on the default settings: not on the app the HTTP files share,
// which must outlive them, but on one app of their own for all of them, not
// one each (an app's start was most of each one's cost, issue 31). Vitest runs
// them in this order, one at a time: each says what it leaves behind, and
// those that leave the database whole come first.

let app: AppServer;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

const ownApp = () => app;

describe("probes", () => describeProbes(ownApp));
describe("activity through a crash", () => describeActivityCrash(ownApp));
describe("a token's owner gone behind the app's back", () => describeDanglingOwner(ownApp));
describe("an unexpected error", () => describeUnexpectedError(ownApp));

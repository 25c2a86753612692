import { beforeEach } from "vitest";
import { troubleInRunningApps } from "./app-server";

// A setup file of the HTTP and CLI projects: when a test fails, what the apps it
// had running logged as trouble (errors, unhandled errors, 5xx answers) is
// printed under the test, since an assertion on a status (a 500 where a 200 was
// expected) cannot say why, and a run on a loaded machine in CI may not fail
// the same way twice. The shared app's trouble is printed at the end of the run
// (test/support/shared-app-global-setup.ts).

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    const trouble = troubleInRunningApps();
    if (trouble) console.error(trouble);
  });
});

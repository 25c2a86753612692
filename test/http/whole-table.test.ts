import { afterAll, beforeAll, describe } from "vitest";
import { type AppWithTokens, startAppWithTokens } from "@/test/support/app-server";
import { describeExportPlantsCsv } from "./whole-table/export-plants-csv";
import { describeFindPlants } from "./whole-table/find-plants";
import { describeListPlants } from "./whole-table/list-plants";

// The tests of plant lists over the whole table: the list, the filters and the
// CSV export without a tag or an id range of their own, whose answers are
// every plant stored. Not on the app the HTTP files share, whose table the
// other files write meanwhile; on one app of their own, each emptying its
// plants before it begins, rather than one app each (issue 31).

let setup: AppWithTokens | undefined;

beforeAll(async () => {
  setup = await startAppWithTokens();
});

afterAll(async () => {
  await setup?.app.stop();
});

const ownApp = (): AppWithTokens => setup!;

/** The group's tests, each on a table emptied of plants first: their answers are every plant stored. */
function onEmptiedTable(describeTests: (app: () => AppWithTokens) => void): () => void {
  return () => {
    beforeAll(async () => {
      await ownApp().app.database.query("DELETE FROM plants");
    });
    describeTests(ownApp);
  };
}

describe("list plants", onEmptiedTable(describeListPlants));
describe("find plants", onEmptiedTable(describeFindPlants));
describe("export plants as CSV", onEmptiedTable(describeExportPlantsCsv));

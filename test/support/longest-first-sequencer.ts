import { BaseSequencer, type TestSpecification } from "vitest/node";

// The order Vitest starts the test files in: the HTTP files that take longest first, each on both
// engines side by side, and the rest after in Vitest's own order (issue 44). Vitest would run every
// SQLite file before any PostgreSQL one, and knows no durations on a fresh clone (it learns them in
// node_modules/.vite), so a long PostgreSQL file (a shutdown delay waited out, a worker killed and
// replaced) started last and ran alone at the end of the HTTP stage, the run's longest, its CPU half
// idle: in a quiet run, the last 50 s. Started first, the long files overlap the rest, and the
// seconds-long files on the shared app fill the end.
//
// The list only orders: a file left off it still runs, and a stale one costs minutes, not a failure.
// Longest first as measured on a quiet run (PLANT_STORE_TEST_REPORTS keeps each file's times), a
// file's own app starts and stops counted in.
const LONGEST_FIRST = [
  "test/http/change-feed-workers.test.ts",
  "test/http/workers-shutdown.test.ts",
  "test/http/workers-start.test.ts",
  "test/http/graceful-shutdown.test.ts",
  "test/http/scheduled-backups-workers.sqlite.test.ts",
  "test/http/backup-under-load.sqlite.test.ts",
  "test/http/webhook-crash-recovery.test.ts",
  "test/http/create-plant.test.ts",
  "test/http/scheduled-backups.sqlite.test.ts",
  "test/http/stop-under-supervisor.test.ts",
  "test/http/webhook-delivery.test.ts",
  "test/http/database-connection-loss.test.ts",
  "test/http/single-sign-on.test.ts",
  "test/http/live-reconnect.test.ts",
  "test/http/webhook-worker-process.test.ts",
];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: a file's SQLite run stays just before its PostgreSQL one, and the rest keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

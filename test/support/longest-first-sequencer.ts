import { BaseSequencer, type TestSpecification } from "vitest/node";

// The HTTP stage's order (issue 31): its files mostly wait (a shutdown's delay,
// a worker's replacement, a backup schedule), four at a time, and a run is as
// long as its last file. Started last, a file that waits a minute keeps the
// stage open after the others are done; started first, its wait passes beside
// the short files. Vitest orders by the durations it cached in an earlier run
// of this checkout, which a fresh clone (CI, a new contributor) has none of,
// and otherwise by file size. So the files that take longest are named here,
// longest first (from a run's report: PLANT_STORE_TEST_REPORTS, docs/development.md),
// for both engines; every other file follows in Vitest's own order.

const LONGEST = [
  "test/http/workers-primary.test.ts",
  "test/http/workers-start.test.ts",
  "test/http/webhook-worker-process.test.ts",
  "test/http/workers-shutdown.test.ts",
  "test/http/webhook-crash-recovery.test.ts",
  "test/http/graceful-shutdown.test.ts",
  "test/http/scheduled-backups.sqlite.test.ts",
  "test/http/webhook-delivery.test.ts",
  "test/http/scheduled-backups-workers.sqlite.test.ts",
  "test/http/create-plant.test.ts",
  "test/http/workers-credentials.test.ts",
  "test/instances/several-instances.test.ts",
  "test/http/stop-under-supervisor.test.ts",
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index === -1 ? LONGEST.length : index;
    };
    // Stable: the files of equal rank (a long one on both engines, every other file) keep Vitest's order.
    return sorted.toSorted((a, b) => rank(a) - rank(b));
  }
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// The test runners' JSON reports, which `npm test` (test/support/test-stages.ts)
// asks for in a folder of its own and reads at the end for the slowest tests.
// A runner started by hand writes none. (Relative imports only: the Vitest and
// Playwright configs load this file.)

export const TEST_REPORTS_VARIABLE = "PLANT_STORE_TEST_REPORTS";

/** Where this stage's runner writes its JSON report, named for the npm script that runs it; undefined outside `npm test`. */
export function testReportFile(): string | undefined {
  const folder = process.env[TEST_REPORTS_VARIABLE];
  if (!folder) return undefined;
  return path.join(folder, `${process.env.npm_lifecycle_event ?? "tests"}.json`);
}

export type TimedTest = { stage: string; file: string; name: string; seconds: number };

type VitestReport = { testResults: { name: string; assertionResults: { fullName: string; duration?: number | null }[] }[] };
type PlaywrightSuite = { file?: string; title: string; suites?: PlaywrightSuite[]; specs?: { title: string; file: string; tests: { projectName: string; results: { duration: number }[] }[] }[] };

/** The `count` slowest tests of every report in `folder`, slowest first. */
export function slowestTests(folder: string, count: number): TimedTest[] {
  const tests = readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .flatMap((name) => {
      const stage = name.slice(0, -".json".length);
      const report = JSON.parse(readFileSync(path.join(folder, name), "utf8")) as VitestReport | { suites: PlaywrightSuite[] };
      return "testResults" in report ? vitestTests(stage, report) : playwrightTests(stage, report.suites);
    });
  return tests.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

function vitestTests(stage: string, report: VitestReport): TimedTest[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({ stage, file: path.relative(process.cwd(), file.name), name: test.fullName, seconds: (test.duration ?? 0) / 1000 })),
  );
}

function playwrightTests(stage: string, suites: PlaywrightSuite[]): TimedTest[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => ({
        stage,
        file: `e2e/${spec.file}`,
        name: `[${test.projectName}] ${spec.title}`,
        seconds: test.results.reduce((sum, result) => sum + result.duration, 0) / 1000,
      })),
    ),
    ...playwrightTests(stage, suite.suites ?? []),
  ]);
}

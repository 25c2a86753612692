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

type VitestReport = {
  testResults: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string; duration?: number | null; failureMessages?: string[] | null }[] }[];
};
type PlaywrightResult = { duration: number; status?: string; error?: { message?: string } };
type PlaywrightTest = { projectName: string; status?: string; results: PlaywrightResult[] };
type PlaywrightSuite = { file?: string; title: string; suites?: PlaywrightSuite[]; specs?: { title: string; file: string; tests: PlaywrightTest[] }[] };

function reportsIn(folder: string): { stage: string; report: VitestReport | { suites: PlaywrightSuite[] } }[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ stage: name.slice(0, -".json".length), report: JSON.parse(readFileSync(path.join(folder, name), "utf8")) as VitestReport | { suites: PlaywrightSuite[] } }));
}

/** The `count` slowest tests of every report in `folder`, slowest first. */
export function slowestTests(folder: string, count: number): TimedTest[] {
  const tests = reportsIn(folder).flatMap(({ stage, report }) => ("testResults" in report ? vitestTests(stage, report) : playwrightTests(stage, report.suites)));
  return tests.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

export type FailedTest = { stage: string; test: string; reason: string };

/**
 * Every failed test of the reports in `folder`, with the first line of its
 * error: the end of a CI log then says what failed and why, where the
 * runner's own account of it is thousands of lines further up.
 */
export function failedTests(folder: string): FailedTest[] {
  return reportsIn(folder).flatMap(({ stage, report }) => ("testResults" in report ? vitestFailures(stage, report) : playwrightFailures(stage, report.suites)));
}

/** Terminal colours, which the runners put in their messages. */
export const ANSI = /\x1b\[[0-9;]*m/g;

/** The first line that says something, without colours, at most 300 characters. */
function firstLine(text: string | undefined): string {
  const line = (text ?? "").replace(ANSI, "").split("\n").map((each) => each.trim()).find((each) => each !== "") ?? "(no message)";
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function vitestFailures(stage: string, report: VitestReport): FailedTest[] {
  return report.testResults.flatMap((file) => {
    const name = path.relative(process.cwd(), file.name);
    const tests = file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => ({ stage, test: `${name} > ${test.fullName}`, reason: vitestReason(test.failureMessages?.[0]) }));
    // A file that failed outside its tests (a hook, an import): its own message.
    return tests.length === 0 && file.status === "failed" ? [{ stage, test: name, reason: firstLine(file.message) }] : tests;
  });
}

// Vitest's report keeps a time-out as the stack it captured where the test was declared, without the message.
function vitestReason(message: string | undefined): string {
  const line = firstLine(message);
  return line === "Error: STACK_TRACE_ERROR" ? "ran out of time (the test's hang guard)" : line;
}

// Playwright's first line says only which expectation failed ("expect(locator).toHaveText(expected) failed"):
// its Expected and Received lines, when it has them, say how.
function playwrightReason(message: string | undefined): string {
  const lines = (message ?? "").replace(ANSI, "").split("\n").map((each) => each.trim());
  const how = lines.filter((line) => /^(Expected|Received):/.test(line)).join("; ");
  return firstLine(how === "" ? message : `${firstLine(message)} ${how}`);
}

function playwrightFailures(stage: string, suites: PlaywrightSuite[]): FailedTest[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === "unexpected")
        .map((test) => ({ stage, test: `e2e/${spec.file} > [${test.projectName}] ${spec.title}`, reason: playwrightReason(test.results.at(-1)?.error?.message) })),
    ),
    ...playwrightFailures(stage, suite.suites ?? []),
  ]);
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

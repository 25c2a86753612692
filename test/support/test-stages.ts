import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import path from "node:path";
import { ANSI, failedTests, slowestTests, TEST_REPORTS_VARIABLE } from "./test-reports";

// `npm test`: every stage of the suite, each the npm script a developer runs
// alone, started as soon as what it needs is done, rather than one after the
// other. Most stages mostly wait (on a server, a browser, a timer), so two
// cores carry several at once. A stage's output is printed whole when it ends,
// under a header, so that stages never interleave; a summary of the times
// closes the run. The exit status is 1 if any stage failed; a stage whose
// prerequisite failed does not run.

type Stage = {
  script: string;
  /** Stages that must have passed first. */
  after: string[];
  /** Off the longest path: it yields the CPU to the stages on it (nice 5, a third of their share). */
  yields?: boolean;
  env?: Record<string, string>;
};

// Every stage runs as soon as what it needs is done, all side by side: the
// run is bound by the CPU (two cores), and any order that keeps both busy
// takes about as long. The unit tests need no build and start at once, like
// typecheck and lint, yielding the CPU to the build, which the browser, HTTP
// and CLI stages wait for. Since issue 31 no test's outcome depends on how
// busy the machine is (timeouts only guard against hangs), so the browser
// lanes no longer need the cores to themselves.
const STAGES: Stage[] = [
  // Without Next's own type check (about 10 s): the typecheck stage checks the same, and the tests too.
  { script: "build", after: [], env: { PLANT_STORE_BUILD_TYPECHECK: "off" } },
  { script: "typecheck", after: [], yields: true },
  { script: "lint", after: [], yields: true },
  { script: "test:unit", after: [], yields: true },
  { script: "test:e2e", after: ["build"] },
  { script: "test:http", after: ["build"] },
  { script: "test:cli", after: ["build"] },
];

type Outcome = { status: "passed" | "failed" | "not run"; seconds: number; cpuSeconds?: number; output?: string };

// Where the test runners write their JSON reports, read at the end for the slowest tests: a folder
// of the run's own, removed at the end, unless the developer names one to keep (each file's and
// test's start and duration, for a closer look at where a run's time went).
const keptReports = process.env[TEST_REPORTS_VARIABLE];
const reports = keptReports || mkdtempSync(path.join(tmpdir(), "plant-store-test-reports-"));
mkdirSync(reports, { recursive: true });
// A kept folder may hold an earlier run's reports: a stage that writes none this time must not be read from them.
for (const { script } of STAGES) rmSync(path.join(reports, `${script}.json`), { force: true });

const started = Date.now();
const outcomes = new Map<string, Outcome>();
const running = new Map<string, ChildProcess>();
const seconds = (since: number) => (Date.now() - since) / 1000;
let interrupted = false;

function log(line: string): void {
  process.stdout.write(`[npm test ${seconds(started).toFixed(0).padStart(4)} s] ${line}\n`);
}

function run(stage: Stage): Promise<void> {
  const since = Date.now();
  log(`${stage.script}: started`);
  // Its own process group, so that an interrupted run stops the stage's whole tree. Through bash, whose
  // `times` then tells the CPU time of the stage's processes (those waited for: every one a runner starts).
  const child = spawn("bash", ["-c", 'npm run "$0"; status=$?; times >&3; exit $status', stage.script], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
    env: { ...process.env, ...stage.env, [TEST_REPORTS_VARIABLE]: reports, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
  });
  running.set(stage.script, child);
  // Set before npm starts the script (it takes a few hundred milliseconds to), which inherits it.
  if (stage.yields && child.pid) setPriority(child.pid, 5);
  const output: Buffer[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk));
  let times = "";
  (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => (times += chunk.toString()));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      running.delete(stage.script);
      const text = Buffer.concat(output);
      const outcome: Outcome = {
        status: code === 0 ? "passed" : "failed",
        seconds: seconds(since),
        cpuSeconds: childrenCpuSeconds(times),
        ...(code !== 0 && { output: text.toString("utf8") }),
      };
      outcomes.set(stage.script, outcome);
      process.stdout.write(`\n──── ${stage.script}: ${outcome.status} in ${outcome.seconds.toFixed(1)} s ────\n`);
      process.stdout.write(text);
      process.stdout.write("\n");
      resolve();
    });
  });
}

async function runAll(): Promise<void> {
  const pending = new Set(STAGES);
  const active = new Set<Promise<void>>();
  while (pending.size > 0 || active.size > 0) {
    for (const stage of [...pending]) {
      const needs = stage.after.map((script) => outcomes.get(script));
      if (interrupted || needs.some((outcome) => outcome && outcome.status !== "passed")) {
        pending.delete(stage);
        outcomes.set(stage.script, { status: "not run", seconds: 0 });
        const failed = stage.after.filter((script) => outcomes.get(script)?.status !== "passed");
        log(`${stage.script}: not run, as ${interrupted ? "the run was interrupted" : `${failed.join(" and ")} did not pass`}`);
      } else if (needs.every((outcome) => outcome?.status === "passed")) {
        pending.delete(stage);
        const done: Promise<void> = run(stage).then(() => void active.delete(done));
        active.add(done);
      }
    }
    if (active.size > 0) await Promise.race(active);
  }
}

// The lines that name a failed test: Vitest's "FAIL  <project> <file> > <test>", Playwright's "  1) [project] › <file>:<line> › <test>".
const FAILURE_LINE = /^\s*(FAIL\s|\d+\) \[)/;

/**
 * The failed tests again, after every stage's output, each with the first line of its error (from
 * the runners' reports): a log read from its end (CI's) shows what failed and why without scrolling
 * back. A stage that wrote no report of its failures is named by the lines of its output that say so.
 */
function failures(): void {
  const reported = failedTests(reports);
  for (const { script } of STAGES) {
    const output = outcomes.get(script)?.output;
    if (output === undefined) continue;
    const ofStage = reported.filter((failure) => failure.stage === script);
    const lines =
      ofStage.length > 0
        ? ofStage.flatMap((failure) => [failure.test, `  ↳ ${failure.reason}`])
        : [...new Set(output.replace(ANSI, "").split("\n").filter((line) => FAILURE_LINE.test(line)).map((line) => line.trim()))];
    process.stdout.write(`\n${script} failed${lines.length > 0 ? ":" : " (its output above says why)"}\n`);
    for (const line of lines.slice(0, 40)) process.stdout.write(`  ${line}\n`);
    if (lines.length > 40) process.stdout.write(`  ... and ${lines.length - 40} more lines\n`);
  }
}

/** The children's user and system time from bash's `times` (its second line: "1m2.500s 0m3.250s"). */
function childrenCpuSeconds(times: string): number | undefined {
  const line = times.trim().split("\n")[1];
  const parts = line?.match(/(\d+)m([\d.]+)s/g);
  if (!parts || parts.length !== 2) return undefined;
  return parts.reduce((sum, part) => {
    const [, minutes, secs] = /(\d+)m([\d.]+)s/.exec(part)!;
    return sum + Number(minutes) * 60 + Number(secs);
  }, 0);
}

function slowest(): void {
  const tests = slowestTests(reports, 20);
  if (tests.length === 0) return;
  process.stdout.write("\nnpm test: the 20 slowest tests (seconds, stage, file > test)\n");
  for (const test of tests) process.stdout.write(`  ${test.seconds.toFixed(1).padStart(6)}  ${test.stage.padEnd(10)} ${test.file} > ${test.name}\n`);
}

function summary(): void {
  process.stdout.write("\nnpm test: stage        status    seconds  CPU seconds\n");
  let cpu = 0;
  for (const { script } of STAGES) {
    const outcome = outcomes.get(script);
    cpu += outcome?.cpuSeconds ?? 0;
    const cpuText = outcome?.cpuSeconds === undefined ? "" : outcome.cpuSeconds.toFixed(0).padStart(12);
    process.stdout.write(`          ${script.padEnd(12)} ${(outcome?.status ?? "not run").padEnd(9)} ${outcome ? outcome.seconds.toFixed(1).padStart(7) : ""}${cpuText}\n`);
  }
  process.stdout.write(`          ${"whole run".padEnd(22)} ${seconds(started).toFixed(1).padStart(7)}${cpu.toFixed(0).padStart(12)}\n`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // `on`, not `once`: Ctrl-C reaches this process both from the terminal and
  // from tsx, which passes it on; the second must not end the run untidily.
  process.on(signal, () => {
    if (!interrupted) log(`${signal}: stopping the stages that run`);
    interrupted = true;
    for (const child of running.values()) if (child.pid) process.kill(-child.pid, signal);
  });
}

void runAll().then(() => {
  // The failures last but for the summary: CI shows the end of the log.
  slowest();
  failures();
  if (!keptReports) rmSync(reports, { recursive: true, force: true });
  summary();
  process.exitCode = !interrupted && [...outcomes.values()].every((outcome) => outcome.status === "passed") ? 0 : 1;
});

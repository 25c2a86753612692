import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isScheduledBackupName } from "@/lib/backup/backup-files";
import { type AppServer, freePort, startApp } from "@/test/support/app-server";
import { makeAccount } from "@/test/support/accounts";
import { signInThrough } from "@/test/support/next-auth-sign-in";
import { type Answer, answeringWorkers, type SendInit, send } from "@/test/support/worker-requests";
import { logLines } from "@/test/support/app-log";
import { backupStatusIn } from "@/test/support/backup-status-file";
import { until } from "@/test/support/until";

// Scheduled backups under `npm start` with two workers (issues 23 and 25):
// the primary runs them, so a backup is taken once per interval, not once per
// worker (lib/backup/backup-schedule-link.ts); the owners' Backups page and its
// "Back up now" work in either worker; and the primary's /metrics has the
// backups' metrics once, beside the workers' own.
//
// A worker is pinned by a keep-alive connection: the primary hands each new
// connection to the next worker, and every request on it goes to that one.
// Which worker it is, an API request on it tells (test/support/worker-requests.ts).

const INTERVAL_MS = 10_000;
const OWNER = { email: "olive@plants.example", password: "a long passphrase for the owner of backups" };
const folder = mkdtempSync(path.join(tmpdir(), "plant-store-scheduled-backups-workers-"));

/** The app's log lines (test/support/app-log.ts). */
const logLinesOf = (app: AppServer) => logLines(app.output());

/** The app's backup status file. */
const status = (app: AppServer) => backupStatusIn(app.database.dataDir);

/** One keep-alive connection to the app, so to one worker, and that worker's place. */
type Pinned = { worker: number; send(path: string, init?: SendInit): Promise<Answer>; close(): void };

async function pin(app: AppServer): Promise<Pinned> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probe = await send(`${app.url}/plants`, {}, agent);
  // An API request (unauthenticated: a 401) names the worker on its log line.
  const [worker] = await answeringWorkers(app, [probe]);
  const onIt = async (target: string, init?: SendInit) => {
    const answer = await send(`${app.url}${target}`, init, agent);
    // Still the connection the probe took, so still that worker.
    expect(answer.localPort).toBe(probe.localPort);
    return answer;
  };
  return { worker: worker!, send: onIt, close: () => agent.destroy() };
}

/** A connection to each worker, in the order of their places. */
async function pinEachWorker(app: AppServer, workers: number): Promise<Pinned[]> {
  const found = new Map<number, Pinned>();
  const spare: Pinned[] = [];
  for (let tries = 0; found.size < workers && tries < 20; tries++) {
    const pinned = await pin(app);
    if (found.has(pinned.worker)) spare.push(pinned);
    else found.set(pinned.worker, pinned);
  }
  for (const each of spare) each.close();
  expect([...found.keys()].sort()).toEqual(Array.from({ length: workers }, (_, place) => place));
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, pinned]) => pinned);
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">", "#x27": "'", "#39": "'" };
const decode = (text: string) => text.replace(/&(amp|quot|lt|gt|#x27|#39);/g, (_, name: string) => ENTITIES[name]!);

/**
 * "Back up now" as a browser without JavaScript sends it: the form's hidden
 * fields (which name the server action) posted to the page, whose answer is
 * the page drawn again with the action's outcome.
 */
async function encodedForm(page: string): Promise<{ body: string; contentType: string }> {
  const form = /<form[^>]*>(?:(?!<\/form>).)*Back up now(?:(?!<\/form>).)*<\/form>/s.exec(page)?.[0];
  if (!form) throw new Error(`no "Back up now" form on the page:\n${page.slice(0, 2000)}`);
  const fields = new FormData();
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?\/?>/g)) fields.set(decode(name!), decode(value ?? ""));
  const encoded = new Request("http://localhost/", { method: "POST", body: fields });
  return { body: await encoded.text(), contentType: encoded.headers.get("content-type")! };
}

async function ownerCookie(app: AppServer): Promise<string> {
  const { sessionToken } = await signInThrough(app.url, "credentials", OWNER);
  if (!sessionToken) throw new Error("the owner could not sign in");
  return `next-auth.session-token=${sessionToken}`;
}

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("scheduled backups with two workers", () => {
  const backupDir = path.join(folder, "backups");
  let app: AppServer;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    // Keep-alive connections stay open between requests however long they take: a pinned worker stays the same.
    app = await startApp({ env: { WEB_CONCURRENCY: "2", BACKUP_DIR: backupDir, BACKUP_INTERVAL: "10s", METRICS_PORT: String(metricsPort), KEEP_ALIVE_TIMEOUT_MS: "600000" } });
    await makeAccount(app.database, { ...OWNER, role: "owner" });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("are taken by the primary, once per interval, not once per worker", async () => {
    // The first at once, then one an interval later, and another.
    const taken = await until(() => {
      const lines = logLinesOf(app).filter((line) => line.message === "backup taken");
      return lines.length >= 3 && lines;
    }, "three scheduled backups");
    // Three or more: a loaded machine may look only once a fourth has been taken (issue 31).
    for (const line of taken) expect(line).not.toHaveProperty("worker");
    // The files are the backups the log names: read both until they agree, since one may be taken between the reads.
    const backupFiles = () => readdirSync(backupDir).filter(isScheduledBackupName).sort();
    const loggedFiles = () => logLinesOf(app).filter((line) => line.message === "backup taken").map((line) => path.basename(line.file as string)).sort();
    await expect.poll(() => (backupFiles().join() === loggedFiles().join() ? "the same" : `${backupFiles().join()} against ${loggedFiles().join()}`)).toBe("the same");
    // One an interval: a schedule in each worker would have taken two at once at the start, and two every interval.
    // Named for when each began, to the second.
    const began = backupFiles().map((name) => Date.parse(name.replace(/^plant-store-(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z\.db$/, "$1-$2-$3T$4:$5:$6Z")));
    expect(began.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < began.length; index++) expect(began[index]! - began[index - 1]!).toBeGreaterThanOrEqual(INTERVAL_MS - 1_000);
    expect(logLinesOf(app).filter((line) => line.level === "error")).toEqual([]);
  });

  it("answer the Backups page and its \"Back up now\" in either worker", async () => {
    const cookie = await ownerCookie(app);
    const workers = await pinEachWorker(app, 2);
    try {
      for (const worker of workers) {
        const page = await worker.send("/backups", { headers: { cookie, accept: "text/html" } });
        expect(page.status).toBe(200);
        // The schedule as the primary runs it: when the next is due, and the button.
        expect(page.body.includes("<dt>Next backup</dt>"), `worker ${worker.worker}'s page shows when the next backup is due`).toBe(true);
        const form = await encodedForm(page.body);
        const before = status(app)!.lastAttempt.startedAt;
        const answer = await worker.send("/backups", { method: "POST", headers: { cookie, accept: "text/html", origin: app.url, "content-type": form.contentType }, body: form.body });
        expect(answer.status, answer.body.slice(0, 2000)).toBe(200);
        const file = /Backed up to (plant-store-\d{8}T\d{6}Z\.db) \(/.exec(answer.body)?.[1];
        expect(file, `worker ${worker.worker}'s answer:\n${answer.body.slice(0, 3000)}`).toBeDefined();
        const after = status(app)!;
        expect(after.lastAttempt.startedAt).not.toBe(before);
        expect(after.lastAttempt).toMatchObject({ ok: true, file: path.join(backupDir, file!) });
      }
    } finally {
      for (const worker of workers) worker.close();
    }
  });

  it("have their metrics in the primary's /metrics once, beside the workers'", async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const samples = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    const series = samples.map((line) => line.slice(0, line.lastIndexOf(" ")));
    expect(series.length).toBeGreaterThan(0);
    expect(series.filter((name, index) => series.indexOf(name) !== index)).toEqual([]);
    const types = text.split("\n").filter((line) => line.startsWith("# TYPE "));
    expect(types.filter((line, index) => types.indexOf(line) !== index)).toEqual([]);

    const value = (name: string) => samples.filter((line) => line.startsWith(`${name} `)).map((line) => Number(line.split(" ")[1]));
    const last = status(app)!;
    const taken = logLinesOf(app).filter((line) => line.message === "backup taken").length;
    expect(value("plant_store_backup_last_run_success")).toEqual([1]);
    expect(value("plant_store_backup_last_size_bytes")).toEqual([last.lastSuccess!.bytes]);
    expect(value("plant_store_backup_last_success_timestamp_seconds")).toEqual([Date.parse(last.lastSuccess!.finishedAt) / 1000]);
    expect(value('plant_store_backups_total{outcome="succeeded"}')).toEqual([taken]);
    expect(value('plant_store_backups_total{outcome="failed"}')).toEqual([0]);
    // The workers' own, added up: the requests this file made.
    expect(samples.some((line) => line.startsWith("plant_store_http_requests_total{"))).toBe(true);
  });

  it("tell each worker when the next is due from the start, when that is an interval away (after a restart)", async () => {
    // The primary stops its schedule with the rest: it exits as cleanly as its workers.
    expect(await app.kill(), app.output().slice(-4000)).toEqual({ code: 0, signal: null });
    const last = status(app)!.lastAttempt;
    // The same store backed up hourly: the next is due an hour after the last began, and nothing is taken before.
    const hourly = await startApp({ database: app.database, env: { WEB_CONCURRENCY: "2", BACKUP_DIR: backupDir, BACKUP_INTERVAL: "1h", KEEP_ALIVE_TIMEOUT_MS: "600000" } });
    const workers = await pinEachWorker(hourly, 2);
    try {
      const cookie = await ownerCookie(hourly);
      for (const worker of workers) {
        const page = await worker.send("/backups", { headers: { cookie, accept: "text/html" } });
        const nextAt = /<dt>Next backup<\/dt><dd><time[^>]*dateTime="([^"]+)"/.exec(page.body)?.[1];
        expect(nextAt, `worker ${worker.worker}'s page shows when the next backup is due`).toBeDefined();
        expect(Date.parse(nextAt!), `worker ${worker.worker}'s next backup after ${JSON.stringify(last)}; the app's log:\n${hourly.output().slice(-4000)}`).toBe(Date.parse(last.startedAt) + 3_600_000);
      }
      expect(status(hourly)!.lastAttempt, hourly.output().slice(-4000)).toEqual(last);
    } finally {
      for (const worker of workers) worker.close();
      await hourly.stop();
    }
  });
});

import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupFileName, isScheduledBackupName } from "@/lib/backup/backup-files";
import { checkSqliteFile } from "@/lib/db/sqlite-snapshot";
import { type AppServer, createToken, freePort, startApp } from "@/test/support/app-server";
import { logLines } from "@/test/support/app-log";
import { backupStatusIn } from "@/test/support/backup-status-file";
import { until } from "@/test/support/until";

// Scheduled backups (issue 23), from the real built app on SQLite with
// BACKUP_INTERVAL at its shortest, 10 s: the first at once, then one every
// interval, each a checked copy holding every plant acknowledged before it
// began; the newest BACKUP_KEEP scheduled ones kept and a manual one never
// removed; a restart goes on with the schedule rather than backing up at
// once; the status file and the metrics say how the last one went; and a
// backup that cannot be made is logged at error and reported as failed.

const INTERVAL_MS = 10_000;
const KEEP = 2;
const folder = mkdtempSync(path.join(tmpdir(), "plant-store-scheduled-backups-http-"));

/** The app's log lines (test/support/app-log.ts). */
const logLinesOf = (app: AppServer) => logLines(app.output());

/** The app's backup status file. */
const status = (app: AppServer) => backupStatusIn(app.database.dataDir);

async function metric(port: number, name: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split("\n").find((each) => each.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("scheduled backups on SQLite", () => {
  const backupDir = path.join(folder, "backups");
  const manual = backupFileName(new Date("2026-01-01T00:00:00Z"), "manual");
  let app: AppServer;
  let metricsPort: number;
  let token: string;

  beforeAll(async () => {
    // A backup an operator took by hand, and the half-made copy of a scheduled one that died with its process.
    mkdirSync(backupDir);
    writeFileSync(path.join(backupDir, manual), "an operator's backup");
    writeFileSync(path.join(backupDir, `${backupFileName(new Date("2026-01-02T00:00:00Z"), "scheduled")}.partial`), "half a backup");
    metricsPort = await freePort();
    app = await startApp({ env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "10s", BACKUP_KEEP: String(KEEP), METRICS_PORT: String(metricsPort) } });
    token = await createToken(app.database, ["plants:write"]);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("backs up at once, then every interval, each a checked copy with every plant stored before it began; keeps the newest BACKUP_KEEP, never a manual one", async () => {
    const first = await until(() => status(app)?.lastSuccess, "the first backup");
    expect(isScheduledBackupName(path.basename(first.file))).toBe(true);

    const ids = Array.from({ length: 50 }, (_, index) => 7_000 + index);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    for (const id of ids) {
      const response = await fetch(`${app.url}/plants`, { method: "POST", headers, body: JSON.stringify({ id, name: `Backed-up fern ${id}` }) });
      expect(response.status).toBe(200);
    }
    const acknowledged = Date.now();

    const later = await until(() => {
      const success = status(app)?.lastSuccess;
      return success && Date.parse(success.startedAt) > acknowledged && success;
    }, "a backup begun after the plants were stored");
    expect(Date.parse(later.startedAt) - Date.parse(first.startedAt)).toBeGreaterThanOrEqual(INTERVAL_MS);
    expect(await checkSqliteFile(later.file)).toEqual(["ok"]);
    const copy = new Database(later.file, { readonly: true });
    const stored = copy.prepare(`SELECT count(*) AS count FROM plants WHERE id BETWEEN ${ids[0]} AND ${ids.at(-1)}`).get() as { count: number };
    copy.close();
    expect(stored.count).toBe(ids.length);

    // A third: the first is then one too many.
    const third = await until(() => {
      const success = status(app)?.lastSuccess;
      return success && Date.parse(success.startedAt) > Date.parse(later.startedAt) && success;
    }, "a third backup");
    expect(readdirSync(backupDir).sort()).toEqual([path.basename(later.file), path.basename(third.file), manual].sort());

    // The status file is written before the log line, which then crosses a pipe to this process: waited for.
    const taken = await until(() => {
      const lines = logLinesOf(app).filter((line) => line.message === "backup taken");
      return lines.some((line) => line.file === third.file) && lines;
    }, "the third backup's log line");
    expect(taken.length).toBeGreaterThanOrEqual(3);
    expect(taken.find((line) => line.file === third.file)).toEqual(
      expect.objectContaining({ level: "info", file: third.file, bytes: third.bytes, durationMs: third.durationMs }),
    );
    expect(logLinesOf(app).filter((line) => line.level === "error")).toEqual([]);

    expect(await metric(metricsPort, "plant_store_backup_last_run_success")).toBe(1);
    expect(await metric(metricsPort, "plant_store_backup_last_size_bytes")).toBe(third.bytes);
    expect(await metric(metricsPort, "plant_store_backup_last_success_timestamp_seconds")).toBe(Date.parse(third.finishedAt) / 1000);
    expect(await metric(metricsPort, 'plant_store_backups_total{outcome="succeeded"}')).toBeGreaterThanOrEqual(3);
    expect(await metric(metricsPort, 'plant_store_backups_total{outcome="failed"}')).toBe(0);

    // Readable by every process on the machine: an operator's script, a monitoring agent.
    expect(statSync(path.join(app.database.dataDir, "backup-status.json")).mode & 0o044).toBe(0o044);
  });

  it("goes on with the schedule after a restart: the next backup one interval after the last began, never sooner, the metrics as the status left them", async () => {
    await app.kill();
    const before = status(app)!;
    expect(before.lastSuccess).not.toBeNull();
    await app.restart();
    // The metrics start from the status file. A backup may have come due while the app was down (a slow
    // restart under the suite's load takes longer than the interval), so the status may already be newer.
    const restarted = await metric(metricsPort, "plant_store_backup_last_success_timestamp_seconds");
    const seconds = (at: { finishedAt: string }) => Date.parse(at.finishedAt) / 1000;
    expect([seconds(before.lastSuccess!), seconds(status(app)!.lastSuccess!)]).toContain(restarted);

    const next = await until(() => {
      const attempt = status(app)?.lastAttempt;
      return attempt && attempt.startedAt !== before.lastAttempt.startedAt && attempt;
    }, "the first backup after the restart");
    expect(Date.parse(next.startedAt) - Date.parse(before.lastAttempt.startedAt)).toBeGreaterThanOrEqual(INTERVAL_MS);
    expect(next.ok).toBe(true);
  });
});

describe("a scheduled backup that fails", () => {
  let app: AppServer;
  let metricsPort: number;

  beforeAll(async () => {
    // A folder under a regular file cannot be made, whoever runs the app (root included).
    const blocker = path.join(folder, "not-a-folder");
    writeFileSync(blocker, "a file");
    metricsPort = await freePort();
    // Hourly: the first attempt, at start, is the only one the test sees, however slow the machine is today.
    app = await startApp({ env: { BACKUP_DIR: path.join(blocker, "backups"), BACKUP_INTERVAL: "1h", METRICS_PORT: String(metricsPort) } });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("is logged at error with its reason, and reported as failed in the status and the metrics", async () => {
    const failed = await until(() => logLinesOf(app).find((line) => line.message === "backup failed"), "the failure in the log");
    expect(failed).toEqual(
      expect.objectContaining({ level: "error", file: expect.stringContaining("not-a-folder"), reason: expect.stringMatching(/not-a-folder is not a folder \(it is a file\)$/), lastSuccessAt: null }),
    );
    expect(status(app)).toEqual({
      lastAttempt: expect.objectContaining({ ok: false, error: failed.reason, file: failed.file }),
      lastSuccess: null,
    });
    expect(await metric(metricsPort, "plant_store_backup_last_run_success")).toBe(0);
    expect(await metric(metricsPort, 'plant_store_backups_total{outcome="failed"}')).toBe(1);
    // The app serves on.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});

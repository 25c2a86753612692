import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { backupFileName, isScheduledBackupName } from "@/lib/backup/backup-files";
import { listBackups } from "@/lib/backup/backup-folder";
import { type BackupStatus, readBackupStatus, writeBackupStatus } from "@/lib/backup/backup-status";
import { type BackupSchedule, nextBackupAt, scheduleBackups, type ScheduledBackups } from "@/lib/backup/scheduled-backups";
import { migrate } from "@/lib/db/migrate";
import { checkSqliteFile } from "@/lib/db/sqlite-snapshot";
import { backupMetrics } from "@/lib/server/metrics";

// The scheduled backups (issue 23) on real SQLite files: a backup is a
// checked copy with every plant, the newest BACKUP_KEEP scheduled ones are
// kept and nothing else is removed, a failure is recorded with its reason
// while the last success stands, and the schedule goes on from the status
// file. Each test drives the backups by hand (backUpNow) under an hour's
// interval, so that no timer fires while it looks: no test waits for a clock.

const HOUR = 3_600_000;
const root = mkdtempSync(path.join(tmpdir(), "plant-store-scheduled-backups-"));
const source = path.join(root, "live.db");
const PLANTS = 1_000;
const started: ScheduledBackups[] = [];
let folders = 0;

beforeAll(async () => {
  // The log and the metrics read the configuration: a data folder of the test's own, not the project's.
  vi.stubEnv("DATA_DIR", path.join(root, "data"));
  vi.stubEnv("DATABASE_URL", `file:${source}`);
  vi.stubEnv("LOG_LEVEL", "warn");
  await migrate({ provider: "sqlite", path: source });
  const writer = new Database(source);
  writer.pragma("journal_mode = WAL");
  const insert = writer.prepare("INSERT INTO plants (id, name, created_at) VALUES (?, ?, '2026-11-26T00:00:00.000+00:00')");
  writer.transaction(() => {
    for (let id = 1; id <= PLANTS; id++) insert.run(id, `Plant ${id}`);
  })();
  writer.close();
});

afterAll(() => {
  for (const backups of started) backups.stop();
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

/** A schedule with a data folder and a backup folder of its own (not made yet), an hour apart. */
function schedule(overrides: Partial<BackupSchedule> = {}): BackupSchedule {
  const place = path.join(root, `case-${++folders}`);
  return { databasePath: source, backupDir: path.join(place, "backups"), dataDir: path.join(place, "data"), intervalMs: HOUR, keep: 24, ...overrides };
}

/** Started, and stopped after the file's tests. */
function start(settings: BackupSchedule): ScheduledBackups {
  const backups = scheduleBackups(settings);
  started.push(backups);
  return backups;
}

async function metricValue(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = await backupMetrics().registry.getSingleMetric(name)?.get();
  return metric?.values.find((value) => Object.entries(labels).every(([key, label]) => value.labels[key] === label))?.value;
}

function plantCount(file: string): number {
  const connection = new Database(file, { readonly: true });
  try {
    return (connection.prepare("SELECT count(*) AS count FROM plants").get() as { count: number }).count;
  } finally {
    connection.close();
  }
}

describe("scheduled backups", () => {
  it("take a checked copy with every plant into a folder they make, and record it in the status and the metrics", async () => {
    const settings = schedule();
    const succeededBefore = (await metricValue("plant_store_backups_total", { outcome: "succeeded" })) ?? 0;
    const attempt = await start(settings).backUpNow();

    expect(attempt).toMatchObject({ ok: true, file: expect.stringContaining(settings.backupDir) });
    if (!attempt.ok) throw new Error(attempt.error);
    expect(isScheduledBackupName(path.basename(attempt.file))).toBe(true);
    expect(readdirSync(settings.backupDir)).toEqual([path.basename(attempt.file)]);
    expect(await checkSqliteFile(attempt.file)).toEqual(["ok"]);
    expect(plantCount(attempt.file)).toBe(PLANTS);
    expect(attempt.bytes).toBe(statSync(attempt.file).size);
    expect(Date.parse(attempt.finishedAt)).toBeGreaterThanOrEqual(Date.parse(attempt.startedAt));

    // Written aside and renamed: nothing but the status itself is left in the data folder.
    expect(readdirSync(settings.dataDir)).toEqual(["backup-status.json"]);
    expect(readBackupStatus(settings.dataDir)).toEqual({ lastAttempt: attempt, lastSuccess: attempt });

    expect(await metricValue("plant_store_backup_last_run_success")).toBe(1);
    expect(await metricValue("plant_store_backup_last_size_bytes")).toBe(attempt.bytes);
    expect(await metricValue("plant_store_backup_last_success_timestamp_seconds")).toBe(Date.parse(attempt.finishedAt) / 1000);
    expect(await metricValue("plant_store_backup_last_duration_seconds")).toBe(attempt.durationMs / 1000);
    expect(await metricValue("plant_store_backups_total", { outcome: "succeeded" })).toBe(succeededBefore + 1);
  });

  it("never take two at once: a second ask while one runs joins it", async () => {
    const settings = schedule();
    const backups = start(settings);
    const first = backups.backUpNow();
    expect(backups.runningSince()).not.toBeNull();
    const second = backups.backUpNow();
    expect(second).toBe(first);
    await first;
    expect(backups.runningSince()).toBeNull();
    expect(readdirSync(settings.backupDir)).toHaveLength(1);
  });

  it("say when their state changes (what a primary tells its workers): as a backup begins, as it ends, and when stopped", async () => {
    const seen: { nextAt: number | null; runningSince: number | null }[] = [];
    const backups = scheduleBackups(schedule(), () => seen.push({ nextAt: backups.nextAt()?.getTime() ?? null, runningSince: backups.runningSince()?.getTime() ?? null }));
    started.push(backups);
    // No status yet: the first is due at once, and is the one this takes.
    const asked = Date.now();
    const attempt = await backups.backUpNow();
    const begun = Date.parse(attempt.startedAt);
    expect(seen).toEqual([
      { nextAt: begun + HOUR, runningSince: begun },
      { nextAt: begun + HOUR, runningSince: null },
    ]);
    expect(begun).toBeGreaterThanOrEqual(asked);
    backups.stop();
    expect(seen.at(-1)).toEqual({ nextAt: null, runningSince: null });
  });

  it("keep the newest BACKUP_KEEP scheduled backups, never a manual one or another file, and remove the partial files of backups that died, journals included", async () => {
    const settings = schedule({ keep: 2 });
    mkdirSync(settings.backupDir, { recursive: true });
    const file = (name: string) => path.join(settings.backupDir, name);
    const older = ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"].map((at) => backupFileName(new Date(at), "scheduled"));
    const manual = backupFileName(new Date("2025-06-01T00:00:00Z"), "manual");
    for (const name of [...older, manual, "before-the-upgrade.db"]) writeFileSync(file(name), "a backup");
    // Left by a scheduled backup that died half-way; by a CLI backup that may be running; by one that died a week ago.
    const deadScheduled = `${backupFileName(new Date("2026-03-01T01:00:00Z"), "scheduled")}.partial`;
    const busyManual = `${backupFileName(new Date(), "manual")}.partial`;
    const deadManual = `${backupFileName(new Date("2026-02-01T00:00:00Z"), "manual")}.partial`;
    for (const name of [deadScheduled, busyManual, deadManual]) writeFileSync(file(name), "half a backup");
    // With the journals SQLite left beside them when they ran out of room.
    for (const name of [deadScheduled, busyManual, deadManual]) writeFileSync(file(`${name}-journal`), "a journal");
    const weekAgo = new Date(Date.now() - 7 * 24 * HOUR);
    for (const name of [deadManual, `${deadManual}-journal`]) utimesSync(file(name), weekAgo, weekAgo);
    // A file whose name has no time is listed by when it was last written.
    const february = new Date("2026-02-15T00:00:00Z");
    utimesSync(file("before-the-upgrade.db"), february, february);

    const attempt = await start(settings).backUpNow();

    expect(attempt.ok).toBe(true);
    expect(readdirSync(settings.backupDir).sort()).toEqual([path.basename(attempt.file), older[2]!, manual, busyManual, `${busyManual}-journal`, "before-the-upgrade.db"].sort());
    // The listing the page shows: backups only, newest first, dated by their names.
    expect(listBackups(settings.backupDir).map(({ name, takenAt }) => [name, takenAt.toISOString()])).toEqual([
      [path.basename(attempt.file), expect.any(String)],
      [older[2], "2026-03-01T00:00:00.000Z"],
      ["before-the-upgrade.db", "2026-02-15T00:00:00.000Z"],
      [manual, "2025-06-01T00:00:00.000Z"],
    ]);
  });

  it("record a failure with its reason, in the status and the metrics, and keep the last success", async () => {
    const settings = schedule();
    const succeeded = await start(settings).backUpNow();
    expect(succeeded.ok).toBe(true);
    const failedBefore = (await metricValue("plant_store_backups_total", { outcome: "failed" })) ?? 0;

    // A folder under a regular file cannot be made, whoever runs the test (root included).
    const blocker = path.join(root, `not-a-folder-${folders}`);
    writeFileSync(blocker, "a file");
    const failing = { ...settings, backupDir: path.join(blocker, "backups") };
    const failed = await start(failing).backUpNow();

    expect(failed).toMatchObject({ ok: false, file: expect.stringContaining(failing.backupDir), error: `cannot make the folder ${failing.backupDir}: ${blocker} is not a folder (it is a file)` });
    expect(readBackupStatus(settings.dataDir)).toEqual({ lastAttempt: failed, lastSuccess: succeeded });
    expect(await metricValue("plant_store_backup_last_run_success")).toBe(0);
    expect(await metricValue("plant_store_backups_total", { outcome: "failed" })).toBe(failedBefore + 1);
    if (!succeeded.ok) throw new Error(succeeded.error);
    expect(await metricValue("plant_store_backup_last_success_timestamp_seconds")).toBe(Date.parse(succeeded.finishedAt) / 1000);
  });

  it("fail on a database that is not there, saying so, and leave no partial file", async () => {
    const settings = schedule({ databasePath: path.join(root, "no-such.db") });
    const failed = await start(settings).backUpNow();
    expect(failed).toMatchObject({ ok: false, error: expect.stringMatching(/unable to open database file|no such/i) });
    expect(readdirSync(settings.backupDir)).toEqual([]);
    expect(readBackupStatus(settings.dataDir)).toMatchObject({ lastAttempt: { ok: false }, lastSuccess: null });
  });

  it("go on from the status file: the next is due an interval after the last attempt began, success or not", async () => {
    const settings = schedule();
    const lastStart = new Date(Date.now() - 20 * 60_000);
    const status: BackupStatus = {
      lastAttempt: { ok: false, startedAt: lastStart.toISOString(), finishedAt: lastStart.toISOString(), durationMs: 0, file: "/x.db", error: "disk full" },
      lastSuccess: null,
    };
    writeBackupStatus(settings.dataDir, status);

    const backups = start(settings);
    expect(backups.nextAt()).toEqual(new Date(lastStart.getTime() + HOUR));
    expect(await metricValue("plant_store_backup_last_run_success")).toBe(0);

    const attempt = await backups.backUpNow();
    expect(backups.nextAt()).toEqual(new Date(Date.parse(attempt.startedAt) + HOUR));
    backups.stop();
    expect(backups.nextAt()).toBeNull();
  });
});

describe("when the next backup is due", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const startedAt = (minutesAgo: number): BackupStatus => {
    const at = new Date(now - minutesAgo * 60_000).toISOString();
    return { lastAttempt: { ok: true, startedAt: at, finishedAt: at, durationMs: 0, file: "/x.db", bytes: 1 }, lastSuccess: null };
  };

  it.each([
    ["with no status (the first start): now", null, now],
    ["20 minutes after the last began: 40 minutes on", startedAt(20), now + 40 * 60_000],
    ["after a stop longer than the interval: now, once", startedAt(300), now],
    ["when the last began in the future (the clock stepped back): one interval on at most", startedAt(-600), now + HOUR],
  ])("%s", (_, status, due) => {
    expect(nextBackupAt(status, HOUR, now)).toBe(due);
  });
});

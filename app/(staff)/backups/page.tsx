import type { Metadata } from "next";
import ms from "ms";
import { BackUpNowButton } from "@/components/backups/back-up-now-button";
import { CardTable } from "@/components/shared/card-table";
import { Fact } from "@/components/shared/fact";
import { LocalTime } from "@/components/shared/local-time";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import type { BackupFile } from "@/lib/backup/backup-folder";
import { backupOverview } from "@/lib/backup/backup-overview";
import type { BackupAttempt } from "@/lib/backup/backup-status";
import { describeSize } from "@/lib/backup/describe-size";

export const metadata: Metadata = { title: "Backups · Plant Store" };

// Owners only (issue 23): whether the app backs the store up, how the last
// backup went, the backups there are, and how to restore one. The facts come
// from the status file and the folder, as they are when the page is drawn.
export default async function BackupsPage() {
  await requireOwner("/backups");
  const overview = backupOverview();
  if (overview.engine === "postgresql") {
    return (
      <>
        <h1>Backups</h1>
        <p>
          This store keeps its data in PostgreSQL, which <code>pg_dump</code> backs up while the app runs, and <code>pg_restore</code> restores: the app
          takes no backups of its own there. <code>npm run --silent db -- backup</code> prints the <code>pg_dump</code> command for this database.
        </p>
      </>
    );
  }
  const { schedule, dir, status, files, running } = overview;
  return (
    <>
      <h1>Backups</h1>
      <p>
        A backup is a copy of the whole store (plants, accounts, API tokens, webhooks and the activity record) in one SQLite file, taken while the app
        runs and checked before it is kept.
      </p>
      <section aria-labelledby="schedule-heading">
        <h2 id="schedule-heading">Schedule</h2>
        {schedule ? (
          <>
            <p>
              Scheduled backups are on: every {ms(schedule.intervalMs, { long: true }).replace(/^1 /, "")}, the newest {schedule.keep} kept.
            </p>
            <dl className="facts">
              <Fact term="Folder" className="file-name">{dir}</Fact>
              {running && <Fact term="Next backup">{running.since ? <>under way since <LocalTime date={running.since} /></> : <LocalTime date={running.nextAt} fallback="none" />}</Fact>}
            </dl>
            {running && <BackUpNowButton />}
          </>
        ) : (
          <>
            <p>Scheduled backups are off.</p>
            <p>
              To turn them on, set <code>BACKUP_DIR</code> to a folder for them, on another disk if you can, and restart the app. <code>BACKUP_INTERVAL</code>{" "}
              says how often (default <code>1h</code>), <code>BACKUP_KEEP</code> how many are kept (default 24). Meanwhile{" "}
              <code>npm run --silent db -- backup</code> takes one by hand.
            </p>
          </>
        )}
      </section>
      <section aria-labelledby="last-backup-heading">
        <h2 id="last-backup-heading">Last backup</h2>
        {status ? (
          <>
            <AttemptFacts attempt={status.lastAttempt} />
            {!status.lastAttempt.ok && (
              <>
                <h3>Last successful backup</h3>
                {status.lastSuccess ? <AttemptFacts attempt={status.lastSuccess} /> : <p>No scheduled backup has succeeded yet.</p>}
              </>
            )}
          </>
        ) : (
          <p>No scheduled backup has been taken yet.</p>
        )}
      </section>
      <section aria-labelledby="backup-files-heading">
        <h2 id="backup-files-heading">Backups in the folder</h2>
        {files.length === 0 ? (
          <p>
            There are no backups in <span className="file-name">{dir}</span> yet.
          </p>
        ) : (
          <CardTable<BackupFile>
            caption={`${files.length === 1 ? "1 backup" : `${files.length} backups`} in ${dir}, newest first`}
            rowHeader={{ header: "File", cell: (file) => file.name, breakAnywhere: true }}
            columns={[
              { header: "Taken", cell: (file) => <LocalTime date={file.takenAt} /> },
              { header: "Size", cell: (file) => describeSize(file.bytes) },
            ]}
            rows={files}
            rowKey={(file) => file.name}
          />
        )}
        <p className="muted">
          Backups whose names end in -manual were taken by hand (<code>npm run --silent db -- backup</code>); only the scheduled ones are ever removed.
        </p>
      </section>
      <section aria-labelledby="restore-heading">
        <h2 id="restore-heading">Restoring a backup</h2>
        <p>
          Stop the app, then run <code>npm run --silent db -- restore FILE</code> with the backup’s file: it checks the backup, puts it in place of the
          database and keeps the database it replaced beside it, for you to remove once you are sure. Then start the app again. Restore refuses while the
          app is running.
        </p>
      </section>
    </>
  );
}

function AttemptFacts({ attempt }: { attempt: BackupAttempt }) {
  return (
    <dl className="facts">
      <Fact term="Result">{attempt.ok ? "Succeeded, checked" : <strong className="failed">Failed: {attempt.error}</strong>}</Fact>
      <Fact term="Taken">
        <LocalTime date={attempt.startedAt} />
      </Fact>
      <Fact term="Took">{(attempt.durationMs / 1000).toFixed(1)} s</Fact>
      {attempt.ok && <Fact term="Size">{describeSize(attempt.bytes)}</Fact>}
      <Fact term="File" className="file-name">{attempt.file}</Fact>
    </dl>
  );
}
